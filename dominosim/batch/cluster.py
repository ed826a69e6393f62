"""A dask.distributed cluster on this machine that listens on nothing but what it needs.

``distributed.LocalCluster`` starts an HTTP server in its scheduler (the dashboard, or at least its
health and metrics pages, on port 8787 even with ``dashboard_address=None``) and one in every
worker. A sweep needs none of them: here the scheduler and the workers build their HTTP
applications but never listen, and every socket binds to 127.0.0.1. What remains listening is the
scheduler's port and each worker's and nanny's port (the workers exchange tasks through them).
"""

from __future__ import annotations

from typing import Any

from distributed import Nanny, Scheduler, SpecCluster, Worker
from distributed.http.routing import RoutingApplication
from tornado.httpserver import HTTPServer

HOST = "127.0.0.1"


class _NoHTTP:
    """Mixin for a dask server node: its HTTP server is created (the node expects one) but does
    not listen.
    """

    def start_http_server(self, routes: Any, dashboard_address: Any, default_port: int = 0,
                          ssl_options: Any = None) -> None:
        self.http_application = RoutingApplication(routes)
        self.http_server = HTTPServer(self.http_application)


class QuietScheduler(_NoHTTP, Scheduler):
    """A scheduler without an HTTP server."""


class QuietWorker(_NoHTTP, Worker):
    """A worker without an HTTP server."""


class QuietNanny(Nanny):
    """A nanny whose worker process runs :class:`QuietWorker`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["worker_class"] = QuietWorker
        super().__init__(*args, **kwargs)


def local_cluster(n_workers: int) -> SpecCluster:
    """Start ``n_workers`` single-threaded worker processes and a scheduler on 127.0.0.1."""
    scheduler = {"cls": QuietScheduler,
                 "options": {"host": HOST, "dashboard": False, "dashboard_address": None}}
    worker = {"cls": QuietNanny, "options": {"host": HOST, "nthreads": 1, "silence_logs": 40}}
    return SpecCluster(scheduler=scheduler, workers={i: worker for i in range(n_workers)},
                       silence_logs=40)
