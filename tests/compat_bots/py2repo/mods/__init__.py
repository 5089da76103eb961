"""A package at the root of a 2012-style repository (Python 2, implicit relative import)."""
from helpers import suspicion_order
