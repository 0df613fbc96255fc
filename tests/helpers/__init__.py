"""Helpers shared by the tests (imported as ``helpers.*``; tests never import other test files)."""
