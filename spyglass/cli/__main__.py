"""``python -m spyglass.cli``: the ``spyglass`` command."""

from spyglass.cli import main

if __name__ == "__main__":  # command discovery imports every module of the package
    main()
