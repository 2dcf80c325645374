"""Security headers on every response (``SecurityHeaders``, the outermost ASGI
middleware, so the fast path's answers and the body limit's refusals carry them too):

* ``Content-Security-Policy``: the pages run only the service's own files (scripts,
  styles, fonts, the API over fetch: ``'self'``), no inline script or style, no
  ``eval``, no plugin, no ``<base>``; images from the service or ``data:`` (the
  pages' empty icon, Swagger UI's glyphs); forms post only to the service; no
  other site may frame a page (``frame-ancestors 'none'``).
* ``X-Frame-Options: DENY``: the same for browsers that read only this one.
* ``X-Content-Type-Options: nosniff``: a file is what its Content-Type says
  (a JSON answer is never run as a script).
* ``Referrer-Policy: no-referrer``: a page's address is never sent to another.

A response that sets one of them itself keeps its own.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
_NAMES = {name for name, _ in HEADERS}


class SecurityHeaders:
    """ASGI middleware: ``HEADERS`` added to every HTTP response's start."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                own = {name.lower() for name, _ in headers} & _NAMES
                headers += HEADERS if not own else [h for h in HEADERS if h[0] not in own]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
