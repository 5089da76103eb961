"""Lord of the Rings: The Confrontation (Whitehouse 2014, §4.2.5-4.2.6)."""
