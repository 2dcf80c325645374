"""service/kernel/sha.py: the interpreter's own SHA-256 gives hashlib's digests, and
hashlib's is taken where the interpreter has none built in."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from service.kernel.sha import sha256


def test_the_digests_are_hashlibs():
    for data in (b"", b"abc", bytes(range(256)) * 40):
        h = sha256(data)
        assert h.digest() == hashlib.sha256(data).digest()
        c = h.copy()
        c.update(b"more")
        assert c.hexdigest() == hashlib.sha256(data + b"more").hexdigest()
        assert h.hexdigest() == hashlib.sha256(data).hexdigest()


def test_hashlibs_where_none_is_built_in():
    code = ("import sys\nsys.modules['_sha256'] = sys.modules['_sha2'] = None\n"
            "import hashlib\nfrom service.kernel.sha import sha256\n"
            "assert sha256 is hashlib.sha256, sha256\nprint(sha256(b'abc').hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == hashlib.sha256(b"abc").hexdigest()


def test_a_replay_does_without_openssl():
    code = ("import sys\nimport event_store.chain, service.kernel.chance, service.kernel.rules\n"
            "import service.aggregates.merchants_and_marauders.catalog\n"
            "print('_hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
