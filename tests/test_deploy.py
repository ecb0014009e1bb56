"""deploy/: the Kubernetes manifests against the Kubernetes schemas (kubernetes-validate),
the compose file against the compose-spec schema (check-jsonschema's vendored copy), the
HAProxy config with `haproxy -c`, and what ties them together (probes, labels, names)."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
KUBERNETES_VERSION = "1.33"  # what the manifests are checked against (strict: no unknown fields)
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def manifests() -> list[dict]:
    """Every resource in deploy/kubernetes/."""
    documents = []
    for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
        documents += [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]
    return documents


def by_kind(kind: str, name: str = "edh-validator") -> dict:
    [resource] = [doc for doc in manifests() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    return resource


@pytest.mark.parametrize("resource", manifests(), ids=lambda doc: f"{doc['kind']}/{doc['metadata']['name']}")
def test_each_manifest_matches_the_kubernetes_schema(resource):
    kubernetes_validate.validate(resource, KUBERNETES_VERSION, strict=True)


def test_the_schema_check_can_fail():
    broken = copy.deepcopy(by_kind("Deployment"))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["path"] = 8000
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)
    broken = copy.deepcopy(by_kind("HorizontalPodAutoscaler"))
    broken["spec"]["minReplica"] = 3  # a typo: strict validation refuses unknown fields
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_the_deployment_is_probed_limited_and_pointed_at_redis():
    deployment = by_kind("Deployment")
    pod = deployment["spec"]["template"]
    [container] = pod["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    env = {item["name"]: item["value"] for item in container["env"]}
    redis_service = by_kind("Service", "edh-redis")
    assert env["REDIS_URL"] == f"redis://{redis_service['metadata']['name']}:{redis_service['spec']['ports'][0]['port']}/0"
    assert env["CARD_DATA_SHARED_DIR"] == "/shared"
    assert set(container["resources"]["requests"]) == {"cpu", "memory"}
    assert set(container["resources"]["limits"]) == {"cpu", "memory"}
    mounts = {mount["name"]: mount["mountPath"] for mount in container["volumeMounts"]}
    volumes = {volume["name"]: volume for volume in pod["spec"]["volumes"]}
    assert "emptyDir" in volumes[next(n for n, p in mounts.items() if p == "/data")]  # a store per pod
    claim = volumes[next(n for n, p in mounts.items() if p == "/shared")]["persistentVolumeClaim"]["claimName"]
    assert by_kind("PersistentVolumeClaim", claim)["spec"]["accessModes"] == ["ReadWriteMany"]


def test_service_hpa_and_pdb_select_the_deployment():
    deployment = by_kind("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert by_kind("Service")["spec"]["selector"].items() <= labels.items()
    assert by_kind("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    hpa = by_kind("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "edh-validator"}
    assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]
    assert hpa["spec"]["minReplicas"] == deployment["spec"]["replicas"] == 3


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def test_the_compose_file_matches_the_compose_spec(tmp_path):
    check = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec"]
    result = subprocess.run(check + [str(DEPLOY / "compose.yaml")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    broken = compose()
    broken["services"]["app1"]["restart"] = ["always"]  # the check can fail
    (tmp_path / "compose.yaml").write_text(yaml.safe_dump(broken), encoding="utf-8")
    result = subprocess.run(check + [str(tmp_path / "compose.yaml")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "restart" in result.stdout


def test_compose_runs_three_instances_behind_haproxy_with_redis():
    services = compose()["services"]
    instances = sorted(name for name in services if name.startswith("app"))
    assert instances == ["app1", "app2", "app3"]
    for name in instances:
        service = services[name]
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        volumes = dict(volume.split(":")[::-1] for volume in service["volumes"])
        assert volumes["/data"] == f"cards-{name[-1]}"  # its own store
        assert volumes["/shared"] == "bulk"  # the bulk file, shared
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in services["lb"]["volumes"]
    servers = [line.split()[1:] for line in (DEPLOY / "haproxy.cfg").read_text().splitlines()
               if line.strip().startswith("server ")]
    assert servers == [[name, f"{name}:8000"] for name in instances]


@pytest.mark.skipif(not Path(HAPROXY).is_file(), reason="Debian's haproxy is not installed (.ci/run installs it)")
def test_haproxy_accepts_the_config(tmp_path):
    result = subprocess.run([HAPROXY, "-c", "-f", str(DEPLOY / "haproxy.cfg")], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Configuration file is valid" in result.stdout + result.stderr
    broken = tmp_path / "haproxy.cfg"
    broken.write_text((DEPLOY / "haproxy.cfg").read_text().replace("balance leastconn", "balance fastest"))
    assert subprocess.run([HAPROXY, "-c", "-f", str(broken)], capture_output=True, timeout=30).returncode != 0
