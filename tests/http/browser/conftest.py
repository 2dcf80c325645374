"""The pages in a real Chromium (Debian's package, launched by path: browsers are never
downloaded here), through pytest-playwright, against the real server of tests/http.

Playwright's sync API keeps an event loop running in the thread while it is started, and
``asyncio.run`` refuses to start inside one: the plugin's session-wide Playwright would break
the asyncio tests that run after these on the same worker. So Playwright and its browser live
for this package only (the plugin's fixtures, at package scope)."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright



@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, chromium):
    return {**browser_type_launch_args, "executable_path": chromium}


@pytest.fixture(scope="package")
def playwright():
    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright, browser_name):
    return getattr(playwright, browser_name)


@pytest.fixture(scope="package")
def launch_browser(browser_type_launch_args, browser_type):
    def launch(**kwargs):
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser(launch_browser):
    b = launch_browser()
    yield b
    b.close()


@pytest.fixture(scope="package")
def browser_context_args():
    return {}
