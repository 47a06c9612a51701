"""The frozen desktop's entry point (PyInstaller): ``python -m app`` with the same arguments."""

from app.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
