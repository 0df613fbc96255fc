"""``python -m bummerl``: the same as the ``bummerl`` command."""

from bummerl.cli import main

if __name__ == "__main__":
    main()
