#!/usr/bin/env python3
"""Writes the MSCCL all-reduce programs of tests/data/msccl/ that follow published descriptions
of ecosystem programs (written here from those descriptions, not copied):

- allpairs16.xml: msccl-tools' all-pairs all-reduce on 16 ranks (nchunksperloop = 16 x 16): each
  rank sends the 16 chunks another rank owns into that rank's scratch buffer (cnt 16), the owner
  adds every scratch copy into its own chunks with local `re` steps (one thread block per owned
  chunk, so no two blocks update one chunk), then sends its reduced chunks to every rank.
- hierarchical8.xml: a two-level all-reduce after msccl-tools' hierarchical all-reduce, 2 nodes
  x 4 ranks: reduce-scatter inside each node through the owner's scratch buffer and local `re`,
  a cross-node exchange of each chunk's node sum between the two ranks of one local index
  (through scratch, then a local `re` that must wait for the rank's own send), an all-gather
  inside each node.
- relay4.xml: a TACCL-style relayed all-reduce on a 4-rank ring: each rank owns one chunk;
  neighbours send directly, the opposite rank's traffic is staged in the scratch buffer of a
  relay (the clockwise neighbour) and forwarded from there, in both the reduce-scatter (`rrc` at
  the owner) and the all-gather (`r` into the data buffer).

Usage: scripts/msccl_programs.py [OUTDIR]   (default tests/data/msccl)
"""

import os
import sys


class Program:
    """Thread blocks per gpu (one per connection peer, plus local blocks), steps with one
    cross-block dependency each (extra ones become `nop` steps, as msccl-tools does)."""

    def __init__(self, name, ngpus, nchunks, topology):
        self.name, self.ngpus, self.nchunks, self.topology = name, ngpus, nchunks, topology
        self.tbs = [dict() for _ in range(ngpus)]  # key -> {"send","recv","steps"}
        self.scratch = [0] * ngpus

    def tb(self, gpu, key, send=-1, recv=-1):
        blocks = self.tbs[gpu]
        if key not in blocks:
            blocks[key] = {"id": len(blocks), "send": send, "recv": recv, "chan": 0,
                           "steps": []}
        return blocks[key]

    def alloc_scratch(self, gpu, cnt):
        first = self.scratch[gpu]
        self.scratch[gpu] += cnt
        return first

    def step(self, gpu, key, kind, src=("i", -1), dst=("i", -1), cnt=1, deps=()):
        """Appends a step to block `key` of `gpu`; deps: (key, step index) on the same gpu.
        Returns (key, index) of the step."""
        block = self.tbs[gpu][key]
        deps = list(deps)
        while len(deps) > 1:
            self._add(gpu, block, "nop", ("i", -1), ("i", -1), 0, deps.pop(0))
        self._add(gpu, block, kind, src, dst, cnt, deps[0] if deps else None)
        return key, len(block["steps"]) - 1

    def _add(self, gpu, block, kind, src, dst, cnt, dep):
        depid, depstep = -1, -1
        if dep is not None:
            target = self.tbs[gpu][dep[0]]
            depid, depstep = target["id"], dep[1]
            target["steps"][depstep]["hasdep"] = 1
        block["steps"].append(dict(type=kind, src=src, dst=dst, cnt=cnt, depid=depid,
                                   deps=depstep, hasdep=0))

    def xml(self, comment):
        out = ['<?xml version="1.0"?>', "<!-- " + comment + " -->"]
        channels = 1 + max(b["chan"] for blocks in self.tbs for b in blocks.values())
        out.append(f'<algo name="{self.name}" proto="Simple" nchannels="{channels}" '
                   f'nchunksperloop="{self.nchunks}" ngpus="{self.ngpus}" coll="allreduce" '
                   f'inplace="1" mtsim_topology="{self.topology}">')
        for g in range(self.ngpus):
            out.append(f'  <gpu id="{g}" i_chunks="{self.nchunks}" o_chunks="{self.nchunks}" '
                       f's_chunks="{self.scratch[g]}">')
            for block in sorted(self.tbs[g].values(), key=lambda b: b["id"]):
                out.append(f'    <tb id="{block["id"]}" send="{block["send"]}" '
                           f'recv="{block["recv"]}" chan="{block["chan"]}">')
                for s, st in enumerate(block["steps"]):
                    out.append(
                        f'      <step s="{s}" type="{st["type"]}" srcbuf="{st["src"][0]}" '
                        f'srcoff="{st["src"][1]}" dstbuf="{st["dst"][0]}" '
                        f'dstoff="{st["dst"][1]}" cnt="{st["cnt"]}" depid="{st["depid"]}" '
                        f'deps="{st["deps"]}" hasdep="{st["hasdep"]}"/>')
                out.append("    </tb>")
            out.append("  </gpu>")
        out.append("</algo>")
        return "\n".join(out) + "\n"


def allpairs(n):
    p = Program(f"allpairs_allreduce_{n}", n, n * n, f"switch:{n}")
    # Thread blocks numbered from the next rank on: mtsim issues a NIC port's messages in
    # thread-block order, and rank r's first sends then go to r+1, not all to rank 0.
    for r in range(n):
        for d in range(1, n):
            peer = (r + d) % n
            p.tb(r, peer, send=peer, recv=peer)
        for j in range(n):
            p.tb(r, ("reduce", j))
    recv_at = {}  # (owner, sender) -> (key, step) of the owner's receive
    base = {}
    # Phase 1: rank r sends chunks peer*n .. peer*n+n-1 into peer's scratch.
    for r in range(n):
        for peer in range(n):
            if peer != r:
                p.step(r, peer, "s", src=("i", peer * n), dst=("s", 0), cnt=n)
    for owner in range(n):
        for sender in range(n):
            if sender != owner:
                base[owner, sender] = p.alloc_scratch(owner, n)
                recv_at[owner, sender] = p.step(owner, sender, "r", src=("i", -1),
                                                dst=("s", base[owner, sender]), cnt=n)
    # Phase 2: the owner adds every scratch copy of its chunk j in local block j.
    last = {}
    for owner in range(n):
        for j in range(n):
            for sender in range(n):
                if sender == owner:
                    continue
                last[owner, j] = p.step(owner, ("reduce", j), "re",
                                        src=("s", base[owner, sender] + j),
                                        dst=("i", owner * n + j), deps=[recv_at[owner, sender]])
    # Phase 3: the owner sends its reduced chunks to every rank.
    for r in range(n):
        for peer in range(n):
            if peer != r:
                p.step(r, peer, "s", src=("i", r * n), dst=("i", r * n), cnt=n,
                       deps=[last[r, j] for j in range(n)])
    for r in range(n):
        for peer in range(n):
            if peer != r:
                p.step(r, peer, "r", dst=("i", peer * n), cnt=n)
    return p


def relay(n=4):
    assert n == 4
    p = Program("relay_allreduce_4", n, n, "ring:4")
    for h in range(n):
        right, left = (h + 1) % n, (h - 1) % n
        p.tb(h, "L", send=left, recv=left)
        p.tb(h, "R", send=right, recv=right)
        a = p.alloc_scratch(h, 1)  # relayed reduce-scatter chunk (of h-1, for h+1)
        b = p.alloc_scratch(h, 1)  # relayed all-gather chunk (h-1's final, for h+1)
        # Reduce-scatter: h owns chunk h. Neighbours send directly (rrc at the owner); h relays
        # chunk h+1 of h-1 from its scratch slot a; h sends chunk h+2 to h+1's scratch.
        p.step(h, "L", "s", src=("i", left), dst=("i", left))
        l1 = p.step(h, "L", "rrc", src=("i", h), dst=("i", h))
        l2 = p.step(h, "L", "r", dst=("s", a))
        l3 = p.step(h, "L", "rrc", src=("i", h), dst=("i", h))
        p.step(h, "R", "s", src=("i", right), dst=("i", right))
        p.step(h, "R", "s", src=("i", (h + 2) % n), dst=("s", 0))
        r2 = p.step(h, "R", "rrc", src=("i", h), dst=("i", h))
        p.step(h, "R", "s", src=("s", a), dst=("i", right), deps=[l2])
        # All-gather: h sends its final chunk to both neighbours and to h+2 through h+1's
        # scratch; it relays h-1's final chunk from its slot b to h+1.
        p.step(h, "R", "s", src=("i", h), dst=("i", h), deps=[l1, l3, r2])
        p.step(h, "R", "s", src=("i", h), dst=("s", 0))
        p.step(h, "L", "s", src=("i", h), dst=("i", h), deps=[l1, l3, r2])
        p.step(h, "L", "r", dst=("i", left))
        l5 = p.step(h, "L", "r", dst=("s", b))
        p.step(h, "L", "r", dst=("i", (h - 2) % n))
        p.step(h, "R", "r", dst=("i", right))
        p.step(h, "R", "s", src=("s", b), dst=("i", left), deps=[l5])
    return p


def hierarchical(nodes=2, local=4):
    """Two-level all-reduce (after msccl-tools' hierarchical all-reduce): reduce-scatter inside
    each node (chunks into the owner's scratch, local `re`), a cross-node exchange of each
    local rank's chunk (both ranks send their node's sum into the other's scratch and add the
    copy they receive), then an all-gather inside each node."""
    assert nodes == 2
    n_ranks = nodes * local
    p = Program(f"hierarchical_allreduce_{nodes}x{local}", n_ranks, local, f"switch:{n_ranks}")
    rank = lambda n, g: n * local + g  # noqa: E731
    for n in range(nodes):
        for g in range(local):
            r = rank(n, g)
            for d in range(1, local):  # numbered from the next local rank on
                j = (g + d) % local
                p.tb(r, j, send=rank(n, j), recv=rank(n, j))
            cross = rank(1 - n, g)
            p.tb(r, "X", send=cross, recv=cross)
            p.tb(r, "red")
    for n in range(nodes):
        for g in range(local):
            r = rank(n, g)
            for j in range(local):
                if j != g:
                    p.step(r, j, "s", src=("i", j), dst=("s", 0))
            last = None
            for k in range(local):
                if k == g:
                    continue
                slot = p.alloc_scratch(r, 1)
                got = p.step(r, k, "r", dst=("s", slot))
                last = p.step(r, "red", "re", src=("s", slot), dst=("i", g), deps=[got])
            # Exchange with the other node's rank of this local index: send the node's sum
            # of chunk g into its scratch, receive its sum into ours, add it in. The add
            # follows the send in this thread block's order: it may not overwrite chunk g
            # before the send has read it.
            slot = p.alloc_scratch(r, 1)
            p.step(r, "X", "s", src=("i", g), dst=("s", slot), deps=[last])
            got = p.step(r, "X", "r", dst=("s", slot))
            fin = p.step(r, "red", "re", src=("s", slot), dst=("i", g), deps=[got])
            for j in range(local):
                if j != g:
                    p.step(r, j, "s", src=("i", g), dst=("i", g), deps=[fin])
            for j in range(local):
                if j != g:
                    p.step(r, j, "r", dst=("i", j))
    return p


def instanced(p, k):
    """msccl-tools' `instances`: the program replicated k times, instance i on channel i with
    chunk (and scratch slot) o becoming o * k + i (its default interleaved replication); the
    runtime sees only the replicated thread blocks, so an importer reads them as channels."""
    q = Program(f"{p.name}_x{k}", p.ngpus, p.nchunks * k, p.topology)
    q.scratch = [slots * k for slots in p.scratch]
    place = lambda ref: (ref[0], ref[1] * k + i if ref[1] >= 0 else -1)  # noqa: E731
    for g in range(p.ngpus):
        blocks = sorted(p.tbs[g].values(), key=lambda b: b["id"])
        for i in range(k):
            for b in blocks:
                steps = []
                for st in b["steps"]:
                    assert st["cnt"] <= 1, "interleaved chunks of a cnt > 1 step are not contiguous"
                    moved = dict(st, src=place(st["src"]), dst=place(st["dst"]))
                    if st["depid"] >= 0:
                        moved["depid"] = i * len(blocks) + st["depid"]
                    steps.append(moved)
                q.tbs[g][b["id"], i] = {"id": i * len(blocks) + b["id"], "send": b["send"],
                                        "recv": b["recv"], "chan": i, "steps": steps}
    return q


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "msccl")
    programs = {
        "allpairs16.xml": (allpairs(16), "msccl-tools-style all-pairs all-reduce, 16 ranks: "
                           "scratch buffer, local re reductions, cnt 16; written by "
                           "scripts/msccl_programs.py from the published description"),
        "hierarchical8.xml": (hierarchical(), "two-level all-reduce after msccl-tools' "
                              "hierarchical all-reduce, 2 nodes x 4 ranks: intra-node reduce-"
                              "scatter through scratch, cross-node exchange through scratch, "
                              "intra-node all-gather; written by scripts/msccl_programs.py"),
        "relay4.xml": (relay(), "TACCL-style relayed all-reduce on ring:4: the opposite rank's "
                       "chunks staged in a relay's scratch buffer; written by "
                       "scripts/msccl_programs.py"),
        "relay4x2.xml": (instanced(relay(), 2), "relay4.xml with msccl-tools' instances=2: the "
                         "program replicated on channels 0 and 1, chunks interleaved; written "
                         "by scripts/msccl_programs.py"),
    }
    for name, (program, comment) in programs.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(program.xml(comment))


if __name__ == "__main__":
    main()
