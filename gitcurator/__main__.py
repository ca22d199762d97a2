from __future__ import annotations

from gitcurator.entry import main

if __name__ == "__main__":
    main()
