"""loads, iter_sequence and CBORDecoder pause the cyclic GC while they build
objects (cf_gc_pause in _ext.c) and give it back as they found it: Python
code between two items, after an error included, always sees the state it
set, and the collection the allocations made due runs at the next
allocation outside the decoder."""

import gc
import io

import pytest

import cbor_fast
from cbor_fast import CBORDecodeError, dumps, iter_sequence, loads

ITEMS = [{"id": i, "tags": ["a", str(i)]} for i in range(20000)]
SEQUENCE = b"".join(dumps(v) for v in ITEMS)


@pytest.fixture(params=[True, False], ids=["gc_enabled", "gc_disabled"])
def gc_state(request):
    was = gc.isenabled()
    if request.param:
        gc.enable()
    else:
        gc.disable()
    yield request.param
    if was:
        gc.enable()
    else:
        gc.disable()


def test_iter_sequence_restores_the_state_between_items(gc_state):
    seen = []
    for item in iter_sequence(dumps([1]) + dumps({"a": [2]}) + dumps("x")):
        seen.append((item, gc.isenabled()))
    assert seen == [([1], gc_state), ({"a": [2]}, gc_state), ("x", gc_state)]
    assert gc.isenabled() is gc_state


def test_iter_sequence_restores_the_state_when_it_raises(gc_state):
    # 01, then 1c: reserved additional information 28 at offset 1
    it = iter_sequence(bytes.fromhex("01 1c".replace(" ", "")))
    assert next(it) == 1
    assert gc.isenabled() is gc_state
    with pytest.raises(CBORDecodeError) as e:
        next(it)
    assert (e.value.status, e.value.offset) == ("reserved_additional_info", 1)
    assert gc.isenabled() is gc_state
    with pytest.raises(StopIteration):
        next(it)
    assert gc.isenabled() is gc_state


def test_loads_restores_the_state(gc_state):
    assert loads(dumps({"a": [1]})) == {"a": [1]}
    assert gc.isenabled() is gc_state
    big = dumps(ITEMS)
    assert len(big) >= 65536
    assert loads(big) == ITEMS
    assert gc.isenabled() is gc_state
    with pytest.raises(CBORDecodeError) as e:
        loads(bytes.fromhex("82 01"))  # an array of 2 with 1 item
    assert (e.value.status, e.value.offset) == ("truncated", 0)
    assert gc.isenabled() is gc_state


def test_hooks_run_paused_and_the_state_comes_back_when_they_raise(gc_state):
    inside = []

    def hook(tag, immutable):
        inside.append(gc.isenabled())
        raise ValueError("hook failed")

    with pytest.raises(CBORDecodeError, match="semantic tag 65280") as e:
        loads(bytes.fromhex("d9 ff00 01".replace(" ", "")), tag_hook=hook)
    assert str(e.value.__cause__) == "hook failed"  # the hook's error, chained (as cbor2)
    assert inside == [False]
    assert gc.isenabled() is gc_state
    inside.clear()

    def object_hook(value, immutable):
        inside.append(gc.isenabled())
        return value

    assert list(iter_sequence(dumps({"a": 1}) * 2, object_hook=object_hook)) == [{"a": 1}] * 2
    assert inside == [False, False]
    assert gc.isenabled() is gc_state


def test_cbor_decoder_restores_the_state(gc_state):
    dec = cbor_fast.CBORDecoder(io.BytesIO(dumps([1, {"b": 2}]) + b"\x1c"))
    assert dec.decode() == [1, {"b": 2}]
    assert gc.isenabled() is gc_state
    with pytest.raises(CBORDecodeError):
        dec.decode()
    assert gc.isenabled() is gc_state


def test_no_collection_while_a_sequence_is_built_then_one_after():
    assert gc.isenabled()
    collections = []

    def callback(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()
    gc.callbacks.append(callback)
    try:
        # 40,000 containers: without the pause about 57 young collections
        # (threshold 700) would run inside the iteration
        # (len: an int, no container allocated before it is read)
        items = list(iter_sequence(SEQUENCE))
        during = len(collections)
        junk = [[] for _ in range(1000)]  # allocations outside the decoder
        after = len(collections)
    finally:
        gc.callbacks.remove(callback)
    assert items == ITEMS
    assert during == 0
    assert after >= 1
    del junk
