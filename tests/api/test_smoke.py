from tests.conftest import auth_headers


def test_health_and_login(client):
    assert client.get("/health").json() == {"status": "ok"}
    h = auth_headers(client, "owner@demo.test")
    r = client.get("/api/tenants/demo/users", headers=h)
    assert r.status_code == 200
    assert r.json()["meta"]["total"] == 4
