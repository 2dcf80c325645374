"""The helper every test starts ``tools serve`` with (``ServerProcess``) waits for the server's
readiness, not a clock, keeps its stderr in a file (never a pipe the server could wait on), and says at
once why a server did not start."""

from __future__ import annotations

import pytest

from service.http.client import Api, ServerProcess


def test_a_server_that_writes_much_on_stderr_is_not_stopped_by_a_full_pipe(tmp_path):
    """More on stderr than a pipe holds (64 KiB), as a server logging its requests writes in a
    long run: it goes to a file, so the server goes on and answers. (A pipe read only when the
    server had exited held this server blocked on its first write; one read by a thread of the
    caller's held a busy server at each line whenever the caller's interpreter was busy.)"""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.stderr.write('a line of log\\n' * 20000)\n"
                                          "sys.stderr.flush()\n")
    with ServerProcess(str(tmp_path / "s.db"), env={"PYTHONPATH": str(site)}) as srv:
        api = Api(srv.url)
        assert api.get("/health").json()["ok"]
        api.close()
        # the server's own lines follow the flood (then its request log: /health, as it was polled and asked)
        assert f"a line of log\nprivateer serves {srv.url}/ (API docs at /docs; Ctrl-C stops)\n" in srv.stderr_tail()


def test_a_server_that_cannot_start_is_said_at_once_with_its_reason(tmp_path):
    srv = ServerProcess(str(tmp_path / "no such folder" / "s.db"))
    with pytest.raises(RuntimeError, match="tools serve exited with 2: .*no such folder"):
        srv.start()
