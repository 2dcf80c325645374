"""The pages in a real Chromium (Debian's package, launched by path: browsers are never
downloaded here), through pytest-playwright, against the real server of tests/http."""

import pytest

from .pw import CHROMIUM


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM}
