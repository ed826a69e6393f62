"""The local Dask cluster of ``--local-cluster`` listens on its comm ports only, on 127.0.0.1."""

from __future__ import annotations

import psutil
import pytest
from distributed import Client

from dominosim.batch.cluster import local_cluster


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


@pytest.mark.slow
def test_local_cluster_listens_on_no_port_but_the_scheduler_workers_and_nannies():
    with local_cluster(2) as cluster, Client(cluster) as client:
        client.wait_for_workers(2)
        assert client.submit(sum, [1, 2, 3]).result() == 6
        workers = client.scheduler_info()["workers"]
        expected = {_port(cluster.scheduler_address)}
        expected |= {_port(w) for w in workers} | {_port(s["nanny"]) for s in workers.values()}
        me = psutil.Process()
        listening = [c.laddr for p in [me, *me.children(recursive=True)]
                     for c in p.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]
    assert len(workers) == 2
    assert {a.port for a in listening} == expected
    assert {a.ip for a in listening} == {"127.0.0.1"}
    assert 8787 not in {a.port for a in listening}
