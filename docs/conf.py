"""Sphinx configuration of the API reference: ``python -m sphinx -W -b html docs docs/_build/html``.

The pages are the Markdown files of ``docs/`` (myst-parser), the notebooks of ``notebooks/``
rendered from their stored outputs (myst-nb, never executed here: ``python
notebooks/execute.py`` regenerates them), and the reference of every public name of
``dominosim`` (autosummary, numpy-style docstrings read by numpydoc).
"""

from __future__ import annotations

import dominosim

project = "dominosim"
author = "the dominosim developers"
copyright = "the dominosim developers, MIT licence"  # noqa: A001 (Sphinx's name)
version = release = dominosim.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
]
# .rst first: autosummary writes its pages with the first suffix
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "README.md", "notebooks/README.md",
                    "**/.ipynb_checkpoints"]
root_doc = "index"

# The notebooks are shown with the outputs committed with them, never run while building.
nb_execution_mode = "off"
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

templates_path = ["_templates"]
autosummary_generate = True
autosummary_ignore_module_all = False  # a module's public names are its __all__
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc shows the documented types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Checked on every documented name (a failure is a warning, so an error under -W): it has a
# docstring (GL08), and it documents no parameter it does not have (PR02). Not checked: that
# every parameter is documented (PR01), which 55 names of the package describe in prose instead.
# Left out: the __init__ that dataclasses write (their fields are the class's Attributes) and
# the members PettingZoo's AECEnv gives the environment.
numpydoc_validation_checks = {"GL08", "PR02"}
numpydoc_validation_exclude = {r"\.__init__$",
                               r"\.DominoEnv\.(max_num_agents|num_agents|unwrapped)$"}

html_theme = "pydata_sphinx_theme"
html_title = f"dominosim {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
