"""pytest: ``core.py`` is not collected for doctests here (its compiled twin would be imported instead).

tests/test_search.py runs its doctests, as plain Python and compiled.
"""

collect_ignore: list[str] = ["core.py"]
