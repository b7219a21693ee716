"""Loads the vectors of 'conform export' into pytest, without conform.

    conform export --out /tmp/conform-export
    CONFORM_EXPORT=/tmp/conform-export pytest examples/export/pytest

Each vector of an op in IMPLEMENTED becomes one test case, named by the
vector's id, that calls the implementation's function and judges its answer
by the rules of the export's README.md. Here the implementation is the
quote.normalize of the Python example adapter; a port puts its own
functions in IMPLEMENTED.
"""

import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples" / "adapters" / "python"))
import conform_adapter  # noqa: E402  (the implementation under test)

EXPORT = pathlib.Path(os.environ.get("CONFORM_EXPORT", "conform-export"))

# op -> function taking the input object; it returns the output object or
# raises conform_adapter.BadRequest for an input the op does not accept.
IMPLEMENTED = {"quote.normalize": conform_adapter.quote_normalize}


def load_vectors():
    index = json.loads((EXPORT / "index.json").read_text(encoding="utf-8"))
    cases = []
    for op in sorted(IMPLEMENTED):
        for name in index["ops"][op]["files"]:
            data = json.loads((EXPORT / name).read_text(encoding="utf-8"))
            cases += [pytest.param(op, v, id=v["id"]) for v in data["vectors"]]
    return cases


def read_input(vector):
    """The input: input_text is raw JSON that may name a member twice, which
    json.loads would hide (the adapter's hook remembers it)."""
    if "input_text" in vector:
        return json.loads(vector["input_text"], object_pairs_hook=conform_adapter.members)
    return conform_adapter.members(list(vector["input"].items()))


def matches(want, got):
    """JSON values equal as the runner compares them; in a refusal only the
    code counts, and leaving it out still matches (PROTO-REJECT-002)."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in ("rejected", "dropped"):
            if key in want or key in got:
                if set(want) != set(got) or not isinstance(got[key], dict):
                    return False
                code = got[key].get("code")
                return code is None or code == want[key].get("code")
        return set(want) == set(got) and all(matches(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(map(matches, want, got))
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    return want == got


@pytest.mark.parametrize("op,vector", load_vectors())
def test_vector(op, vector):
    expect = vector["expect"]
    inp = read_input(vector)
    if "error" in expect:
        assert expect["error"]["kind"] == "bad_request"
        with pytest.raises(conform_adapter.BadRequest):
            if inp.twice:  # a member named twice: the adapter's loop refuses it
                raise conform_adapter.BadRequest("a member named twice")
            IMPLEMENTED[op](inp)
        return
    got = IMPLEMENTED[op](inp)
    wants = [expect["output"]] if "output" in expect else list(expect["outputs"].values())
    assert any(matches(w, got) for w in wants), f"{vector['id']}: got {got!r}, want {wants!r}"
