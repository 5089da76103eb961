"""Game rules kernels. Each game lives in its own subpackage."""
