"""My games through the API (the tokens a browser keeps: your move first, then others, then finished)
and the lobby's lists (no local games nobody moved in; moves counted as players count them)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")


def new(client, **spec) -> dict:
    r = client.post("/api/games", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def move(client, g: dict, text: str, token: str) -> None:
    ply = client.get(f"/api/games/{g['id']}").json()["ply"]
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": text, "ply": ply},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def test_my_games_lists_held_seats_your_move_first(client):
    waiting = new(client, mode="invite", side="white")  # Black's move after e4: theirs
    move(client, waiting, "e4", waiting["seat"]["token"])
    mine = new(client, mode="invite", side="black")  # White's move: the other side's
    to_me = new(client, mode="invite", side="white")  # my move
    done = new(client, mode="invite", side="white")
    client.post(f"/api/games/{done['id']}/resign", json={},
                headers={"Authorization": f"Bearer {done['seat']['token']}"})
    untouched = new(client)  # a local game nobody moved in: left out
    other = new(client, mode="invite", side="white")  # a token of another game: not mine
    held = [{"id": g["id"], "token": g["seat"]["token"]} for g in (waiting, mine, done, to_me, untouched)]
    held.append({"id": other["id"], "token": waiting["seat"]["token"]})
    held.append({"id": "nosuchgame", "token": "x" * 22})
    got = client.post("/api/mygames", json={"games": held}).json()["games"]
    assert [g["id"] for g in got] == [to_me["id"], mine["id"], waiting["id"], done["id"]]
    assert [g["your_turn"] for g in got] == [True, False, False, False]
    assert got[0]["you"] == ["white"] and got[1]["you"] == ["black"] and got[2]["turn"] == "black"
    assert got[0]["free"] == ["black"] and got[1]["free"] == ["white"]  # nobody has taken the invites
    assert got[3]["status"] == "over" and got[3]["result"] == "0-1"
    assert waiting["seat"]["token"] not in str(got)


def test_my_games_budget(client):
    many = [{"id": f"g{i}", "token": "t"} for i in range(201)]
    assert client.post("/api/mygames", json={"games": many}).json()["error"]["code"] == "validation"


def test_the_lobby_leaves_out_untouched_local_games_and_counts_moves(client):
    untouched = new(client, white="human", black="human")
    played = new(client, white="human", black="human")
    for text in ("e4", "e5", "Nf3"):
        move(client, played, text, played["seat"]["token"])
    lobby = client.get("/api/lobby").json()["playing"]
    ids = {g["id"]: g for g in lobby}
    assert untouched["id"] not in ids and ids[played["id"]]["moves"] == 2 and ids[played["id"]]["ply"] == 3
    html = client.get("/lobby").text
    assert untouched["id"] not in html and f'<td>2</td><td><a href="/game/{played["id"]}">' in html
