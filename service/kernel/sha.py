"""``sha256``: hashlib's SHA-256, from the interpreter's own module where it has one.

``hashlib`` loads OpenSSL (``_hashlib``), a tenth of a quick read's start-up
(``tools replay``, bench/replay_work.py); the interpreter's builtin SHA-256
module (``_sha256`` up to Python 3.11, ``_sha2`` from 3.12) gives the same
digests, and the same objects (``update``, ``copy``, ``digest``, ``hexdigest``).
Where neither is built in, hashlib's.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy takes the name as true: the type is hashlib's
if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha256 import sha256
    except ImportError:  # Python 3.12 on: _sha2
        try:
            from _sha2 import sha256
        except ImportError:  # an interpreter built without them
            from hashlib import sha256

__all__ = ["sha256"]
