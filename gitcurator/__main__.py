from __future__ import annotations

from gitcurator.cli import main

if __name__ == "__main__":
    main()
