"""A discrete-event model of a continuous-batching server (vLLM v1 scheduler semantics) in virtual time.

One call to :meth:`Engine.step` is one forward pass of the server. Each step:

1. requests that have arrived join the FCFS waiting queue;
2. decoding sequences whose next token starts a new KV block get one (when none is free the most
   recently admitted running request is preempted — its blocks are freed and it is recomputed later,
   vLLM's default ``recompute`` preemption);
3. the token budget ``max_num_batched_tokens`` is spent: one token per decoding sequence, then chunks of
   prompts already being prefilled, then new requests from the head of the queue while there is a seat
   (``max_num_seqs``) and free KV blocks for their chunk (chunked prefill mixed with decode);
4. the step lasts ``costs.step_seconds(...)`` — the roofline's time of what it does.

With ``mixed_prefill`` off (SGLang's default scheduler) a step that can prefill does only that: its budget is
spent on prompt chunks alone and the decoding sequences emit nothing until a step without prefill work.

Outside the GPU, a request first spends ``request_overhead_s`` in the server (HTTP and JSON, tokenization,
scheduling hand-off, first detokenization — the engine profile's figure) before it can join the queue; its TTFT
counts from the arrival, so that time is in it. With ``shared_prefix_tokens`` and prefix caching, the whole
blocks of a shared system prompt are computed once, kept resident and shared by every request (vLLM's
automatic prefix caching, SGLang's radix cache): later prompts prefill only the rest and hold only their own
blocks.

Why it is fast: decoding sequences are kept as an aggregate (a count and a sum of context lengths),
and their future events — finishing, needing a new KV block — are kept by step index (finishes in a heap; block
events in ``block_size`` buckets by step modulo the block size, see ``Engine._blk_buckets``). A step costs
O(prefill chunks + events), not O(batch); token times of a request are a slice of the shared step-end timeline,
turned into ITL/TPOT with numpy afterwards.
"""

from __future__ import annotations

import heapq
import itertools
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

import numpy as np


class StepCosts(Protocol):
    """Seconds of one engine step; the sizing core's ``StepCostModel`` satisfies this."""

    def step_seconds(
        self, prefill_tokens: int, prefill_attention_pairs: float, decode_seqs: int, kv_tokens_read: int
    ) -> float: ...


@dataclass(frozen=True)
class EngineLimits:
    """The server settings that shape scheduling (vLLM names)."""

    kv_blocks: int
    block_size: int = 16
    max_num_seqs: int = 256
    max_num_batched_tokens: int = 8192
    request_overhead_s: float = 0.0  # server time per request outside the GPU (engine profile)
    shared_prefix_tokens: int = 0  # leading prompt tokens every request shares (a system prompt)
    prefix_caching: bool = True  # compute a shared prefix once and share its KV blocks
    # vLLM V0 multi-step scheduling (--num-scheduler-steps N): the scheduler runs once per N decode steps, so a
    # new request waits for the running window to end before its prefill can start. 1 = every step (V1).
    # Its first token is not held to the end of a window (read in the v0.6.0 sdist): a prefill is a group of one step
    # (core/scheduler.py:866-868 init_multi_step(_get_num_lookahead_slots(is_prefill=True) + 1), and 1432-1443
    # returns 0 for a prefill), so engine/llm_engine.py:1571-1581 queues its output as a last step, whose
    # RequestOutput is made at once (only non-last steps return early, 1352); with async output processing that
    # happens as the next step is launched (worker/multi_step_model_runner.py:264-268). The scheduler is skipped while
    # a window has steps left (llm_engine.py:1497-1500): the wait modelled here, nothing more.
    scheduler_steps: int = 1
    # True (vLLM V1, TensorRT-LLM, llama.cpp): prompt chunks share a step with the decoding sequences. False
    # (SGLang, whose --enable-mixed-chunk is off by default): a step that can prefill runs the prefill batch
    # alone and every decoding sequence waits for it (scheduler.get_next_batch_to_run: "Run prefill first").
    mixed_prefill: bool = True
    # KV held back for the running requests' future tokens when a waiting request is admitted. 0 (vLLM): admit as
    # soon as the prompt's blocks are free, preempt if decoding later runs out. > 0: a request joins only if its
    # whole prompt and its whole output fit beside `admission_reserve` × every running request's remaining output
    # — 1.0 for TensorRT-LLM's default GUARANTEED_NO_EVICT capacity policy; SGLang's PrefillAdder uses its
    # `new_token_ratio`, which starts at 0.7 and falls to `admission_reserve_floor` over
    # `admission_reserve_decay_steps` decode steps (back to the start when the server idles or has to preempt).
    admission_reserve: float = 0.0
    admission_reserve_floor: float | None = None  # None: no decay
    admission_reserve_decay_steps: int = 0
    # True: the engine schedules one step ahead — while step n runs on the GPU its CPU has already scheduled step
    # n + 1 (vLLM's async scheduling, its default since 0.14: EngineCore.step_with_batch_queue fills the batch queue
    # before it waits for the oldest batch; SGLang's overlap scheduler, default since 0.4; TensorRT-LLM's PyTorch
    # overlap scheduler, default since 1.0). A request that arrives while step n runs therefore cannot join n + 1,
    # planned before it came, and waits for n + 2: the admissions of a step are those ready by the start of the
    # step before it, whenever that step ran back to back with it. False: each step is planned when the previous
    # one ends (a synchronous loop: vLLM V0 and V1 before 0.14 without --async-scheduling, SGLang before 0.4).
    schedule_ahead: bool = False

    def __post_init__(self) -> None:
        if self.kv_blocks < 1:
            raise ValueError("the KV cache must hold at least one block: the model leaves no memory for it")
        if self.block_size < 1 or self.max_num_seqs < 1 or self.max_num_batched_tokens < 1 or self.scheduler_steps < 1:
            raise ValueError("block_size, max_num_seqs, max_num_batched_tokens and scheduler_steps must be positive")
        if self.request_overhead_s < 0 or self.shared_prefix_tokens < 0:
            raise ValueError("request_overhead_s and shared_prefix_tokens cannot be negative")
        if not 0.0 <= self.admission_reserve <= 1.0 or self.admission_reserve_decay_steps < 0:
            raise ValueError("admission_reserve must lie in 0..1 and its decay steps cannot be negative")

    @property
    def cached_prefix_blocks(self) -> int:
        """Whole blocks of the shared prefix that caching can reuse (a partial block is recomputed)."""
        return self.shared_prefix_tokens // self.block_size if self.prefix_caching else 0

    @property
    def kv_tokens(self) -> int:
        return self.kv_blocks * self.block_size


# Sequence states
WAITING, PREFILL, DECODE, FINISHED, REJECTED, ABORTED = range(6)

# Runs of pure decode steps at least this long are stepped with numpy (_decode_run_array), at most this many steps
# at a time; shorter ones one step at a time (numpy's fixed cost per call is that of a few Python steps). 64 since the
# block events left their heap (a Python step got cheaper): the captured levels of every plan scenario took ~7 % less
# CPU than at 24, the same at 200 measured requests (the same floats either way: test_sim_engine's fast-path tests).
VECTOR_RUN_MIN = 64
_INF = float("inf")
VECTOR_RUN_MAX = 4096


class Seq:
    """One request inside the engine. Times are virtual seconds; ``segments`` are inclusive step-index
    ranges in which the request emitted exactly one token per step."""

    __slots__ = (
        "rid", "prompt", "output", "arrival", "state", "target", "prefilled", "generated", "blocks",
        "epoch", "g_join", "gen_at_join", "dec_c", "first_sched", "first_token_t", "finish_t",
        "segments", "seg_start", "preemptions", "listener", "tag", "shared", "cached", "res_c", "blk_at",
    )  # fmt: skip

    def __init__(self, rid: int, prompt: int, output: int, arrival: float, tag: object = None) -> None:
        self.rid = rid
        self.prompt = prompt
        self.output = output
        self.arrival = arrival
        self.state = WAITING
        self.target = prompt  # tokens to (re)compute before the next token can be sampled
        self.prefilled = 0
        self.generated = 0  # tokens emitted so far (exact except while decoding: see tokens_at)
        self.blocks = 0
        self.epoch = 0  # bumped on preemption/finish: invalidates heap entries
        self.g_join = 0  # first decode step index
        self.gen_at_join = 0
        self.dec_c = 0  # this sequence's share of the decode kv-read aggregate
        self.first_sched: float | None = None
        self.first_token_t: float | None = None
        self.finish_t: float | None = None
        self.segments: list[tuple[int, int]] = []
        self.seg_start = -1
        self.preemptions = 0
        self.listener: Callable[[Seq, int, float], None] | None = None
        self.tag = tag
        self.shared = 0  # leading KV blocks this request reads from the shared prefix cache (not its own)
        self.cached = 0  # after a preemption: own full blocks still in the prefix cache (free, not yet evicted)
        self.res_c = 0  # this running sequence's share of Engine._gen_const (tokens emitted, see _remaining_output)
        self.blk_at = 0  # while decoding: the step at which its next token opens a new KV block (Engine._blk_buckets)

    def tokens_at(self, g: int) -> int:
        """Tokens emitted after step ``g`` has completed."""
        if self.state == DECODE:
            return self.gen_at_join + max(0, g - self.g_join + 1)
        return self.generated


def _blocks_for(tokens: int, block_size: int) -> int:
    return -(-tokens // block_size)


# The decode step functions of the cost models simulated lately, per batch size (Engine._decode_cost): a plan
# simulates several levels of the same setup, each in a new Engine, and working them out again for every level was a
# tenth of a level's time. By object identity (the entry keeps its cost model alive, so the id is not reused); a cost
# model is immutable (StepCostModel is a frozen dataclass).
_DECODE_COSTS: dict[int, tuple[object, dict]] = {}
DECODE_COSTS_KEPT = 64


def _decode_costs_of(costs: object) -> dict:
    """Batch size n -> the decode step function, (n, "array") -> its array form (Engine._decode_cost*)."""
    entry = _DECODE_COSTS.get(id(costs))
    if entry is not None and entry[0] is costs:
        return entry[1]
    fns: dict = {}
    if len(_DECODE_COSTS) >= DECODE_COSTS_KEPT:
        _DECODE_COSTS.clear()  # start afresh: a plan uses a handful of setups
    _DECODE_COSTS[id(costs)] = (costs, fns)
    return fns


class Engine:
    """Virtual-time continuous-batching engine. Not thread-safe: one owner drives it."""

    def __init__(self, costs: StepCosts, limits: EngineLimits, *, record_steps: bool = True) -> None:
        self.costs = costs
        self.limits = limits
        self.t = 0.0
        self.waiting: deque[Seq] = deque()
        self.running: dict[int, Seq] = {}  # admission order; the tail is preempted first
        self.prefilling: dict[int, Seq] = {}
        self.free_blocks = limits.kv_blocks
        self.n_dec = 0
        self._dec_sum = 0  # kv_tokens_read of a step g = _dec_sum + n_dec * g
        # (finish step − _fin_off, epoch, rid): a prefill-first step moves every pending finish one step on, and that
        # is one addition to _fin_off instead of a new heap (the order of the entries does not change)
        self._finish_heap: list[tuple[int, int, int]] = []
        self._fin_off = 0
        # KV block events. A decoding sequence opens a block every ``block_size`` steps (at ``seq.blk_at``, then
        # ``block_size`` later, …), so every decoding sequence sits in the bucket ``blk_at % block_size`` from its
        # first decode step to its last, and the events due at step g are the members of bucket g % block_size whose
        # blk_at is g (a member whose blk_at lies past its finish step has none left). This replaced a heap with one
        # entry per sequence and block (pushed and popped every block_size steps: most of a level's time at tens of
        # users); events still happen in the heap's order, (epoch, rid) within a step, wherever order matters: when
        # blocks run short. A preempted or aborted sequence left its pending entry behind in that heap, and where
        # that entry ended a run of decode steps (SGLang's decaying reserve, _blocks_inline) its step is kept here
        # as a ghost, so the runs end at the same steps as before.
        self._blk_buckets: list[dict[int, Seq]] = [{} for _ in range(limits.block_size)]
        self._ghosts: list[int] = []  # heap of steps
        self._arrivals: list[tuple[float, int, Seq]] = []
        self._next_rid = 0
        self.steps = 0  # steps completed; the index of the next step
        # The per-step history is kept in typed arrays (doubles, 64-bit ints), not lists: a level's tens of thousands
        # of steps then hold no Python float or int object each (made, kept and freed one by one at the level's end),
        # and ``summarise`` reads them as numpy arrays without converting element by element (issue #27). Indexing,
        # slicing, ``len``, iteration, ``sum``/``max`` and comparing two engines' histories read them as the lists did.
        self.step_end: array[float] = array("d")  # virtual time at the end of each step (the token timeline)
        self.record_steps = record_steps  # False in the long-running server: keep no per-step history
        self.fast_decode = True  # run stretches of pure decode steps without the scheduler (same results)
        self._decode_costs: dict = _decode_costs_of(costs)  # per batch size (_decode_cost, _decode_cost_array)
        # per-step state for time-weighted averages (dt, blocks used, waiting, running)
        self.step_dt: array[float] = array("d")
        self.step_blocks: array[int] = array("q")
        self.step_waiting: array[int] = array("q")
        self.step_running: array[int] = array("q")
        self.step_tokens: array[int] = array("q")
        self.preemptions = 0
        self.prompt_tokens_computed = 0
        self.generation_tokens = 0
        self.on_finish: Callable[[Seq], None] | None = None
        self.on_token: Callable[[Seq, int, float], None] | None = None  # realtime: (seq, tokens so far, t)
        self.last_step: tuple[int, int, int] = (0, 0, 0)  # (prefill tokens, decode seqs, kv read) of the last step
        self.prefix_blocks = 0  # blocks of the shared prefix held by the cache (0 until first computed)
        self.prefix_hits = 0  # requests whose prefill started after the cached prefix
        # Preempted requests whose freed blocks still hold their KV (prefix caching): oldest first. Those blocks
        # count as free; allocations evict them only when no other block is free (LRU, a request's tail first).
        self._evictable: deque[Seq] = deque()
        self._cached_free = 0
        self.recompute_hits = 0  # preempted requests readmitted with part of their KV still cached
        self._window_start = 0  # multi-step scheduling: first step of the current run of decode windows
        self._decoding_paused = 0  # decoders that sat out the planned step (prefill first, mixed_prefill off)
        # Admission reserve (EngineLimits.admission_reserve): the running requests' remaining output is
        # _out_sum − (_gen_const + n_dec × g) before step g — O(1), kept up to date at every state change.
        self._out_sum = 0  # Σ output over running requests
        self._gen_const = 0  # Σ tokens emitted (prefill) / gen_at_join − g_join (decode) over running requests
        self.reserve_ratio = limits.admission_reserve
        # start and end of the last step run (schedule_ahead: the next step was planned when that one started)
        self._last_start = 0.0
        self._last_end = -1.0
        # _blocks_inline without a decaying reserve (every engine but SGLang's): always True, read once a step
        self._inline_always = limits.admission_reserve_floor is None or not limits.admission_reserve_decay_steps
        # EngineLimits.cached_prefix_blocks once (a property: worked out again at every finished prefill otherwise)
        self._prefix_want = limits.cached_prefix_blocks
        # limits read on every request or step, kept as plain attributes (a frozen dataclass's fields and properties
        # cost an attribute chain or a call each time)
        self._bs, self._kv_blocks, self._kv_tokens = limits.block_size, limits.kv_blocks, limits.kv_tokens
        self._overhead_s = limits.request_overhead_s
        self._sched_steps, self._ahead = limits.scheduler_steps, limits.schedule_ahead  # read once a decode run
        self._reserve_floor = limits.admission_reserve_floor

    # ----------------------------------------------------------------------------------------------- input
    def add_request(self, prompt: int, output: int, arrival: float | None = None, tag: object = None) -> Seq:
        """Queue a request arriving at ``arrival`` (default: now). Lengths are in tokens, output ≥ 1."""
        prompt, output = int(prompt), int(output)  # at least one token each (max(1, …) spelt out: once a request)
        prompt, output = prompt if prompt > 1 else 1, output if output > 1 else 1
        rid = self._next_rid
        self._next_rid = rid + 1
        seq = Seq(rid, prompt, output, self.t if arrival is None else arrival, tag)
        if prompt + output > self._kv_tokens:
            # A real server refuses a request that can never fit (prompt + max_tokens > max_model_len).
            seq.state = REJECTED
            seq.finish_t = seq.arrival
            if self.on_finish:
                self.on_finish(seq)
            return seq
        ready = seq.arrival + self._overhead_s  # HTTP, tokenization, … before the queue
        if ready <= self.t:
            self.waiting.append(seq)
        else:
            heapq.heappush(self._arrivals, (ready, seq.rid, seq))
        return seq

    def abort(self, seq: Seq) -> None:
        """Drop a request (the client went away): free its seat and blocks."""
        if seq.state in (FINISHED, REJECTED, ABORTED):
            return
        if seq.state == WAITING:
            self._forget_cached(seq)
            try:
                self.waiting.remove(seq)
            except ValueError:
                self._arrivals = [a for a in self._arrivals if a[2] is not seq]
                heapq.heapify(self._arrivals)
        else:
            seq.generated = seq.tokens_at(self.steps - 1)
            self._remove_running(seq)
        seq.epoch += 1
        seq.state = ABORTED
        seq.finish_t = self.t

    @property
    def has_work(self) -> bool:
        return bool(self.running or self.waiting or self._arrivals)

    @property
    def next_arrival(self) -> float | None:
        return self._arrivals[0][0] if self._arrivals else None

    @property
    def blocks_used(self) -> int:
        return self.limits.kv_blocks - self.free_blocks

    # ------------------------------------------------------------------------------------------ internals
    def _remove_running(self, seq: Seq) -> None:
        del self.running[seq.rid]
        self._out_sum -= seq.output
        self._gen_const -= seq.res_c
        seq.res_c = 0
        if seq.state == PREFILL:
            self.prefilling.pop(seq.rid, None)
        elif seq.state == DECODE:
            self.n_dec -= 1
            self._dec_sum -= seq.dec_c
            del self._blk_buckets[seq.blk_at % self._bs][seq.rid]
            if seq.blk_at < seq.g_join + seq.output - seq.gen_at_join:  # ≤ _finish_step: a block event still pending, a ghost (see _blk_buckets)
                heapq.heappush(self._ghosts, seq.blk_at)
        self.free_blocks += seq.blocks
        seq.blocks = 0
        seq.shared = 0

    def _preempt(self, seq: Seq, g: int) -> None:
        """Recompute preemption: free everything, keep the emitted tokens, go to the head of the queue."""
        if seq.state == DECODE:
            seq.generated = seq.tokens_at(g - 1)
        own_full = max(0, seq.blocks - 1)  # the last block may be partial: only full blocks are cached
        self._remove_running(seq)
        if self.limits.prefix_caching and own_full:
            # vLLM V1 frees the blocks but keeps their hashes: a prompt recompute after preemption finds them
            # in the prefix cache unless other allocations evicted them meanwhile.
            seq.cached = own_full
            self._cached_free += own_full
            self._evictable.append(seq)
        if seq.seg_start >= 0:
            if g - 1 >= seq.seg_start:
                seq.segments.append((seq.seg_start, g - 1))
            seq.seg_start = -1
        seq.epoch += 1
        seq.state = WAITING
        seq.prefilled = 0
        seq.target = seq.prompt + seq.generated
        seq.preemptions += 1
        self.preemptions += 1
        self.waiting.appendleft(seq)
        self.reserve_ratio = self.limits.admission_reserve  # SGLang re-estimates after a retraction

    def _allocate(self, n: int, requester: Seq, g: int) -> bool:
        """Take ``n`` blocks for a running request, preempting from the tail; False if it preempted itself."""
        while self.free_blocks < n:
            victim = self.running[next(reversed(self.running))]
            self._preempt(victim, g)
            if victim is requester:
                return False
        self._take(n)
        requester.blocks += n
        return True

    def _locked(self, g: int) -> bool:
        """Multi-step scheduling: step ``g`` lies inside a running window of decode steps (no scheduling)."""
        n = self.limits.scheduler_steps
        return n > 1 and self.n_dec > 0 and (g - self._window_start) % n != 0

    def _take(self, n: int) -> None:
        """Take ``n`` free blocks, evicting cached blocks of preempted requests when no other block is free."""
        self.free_blocks -= n
        deficit = self._cached_free - self.free_blocks
        while deficit > 0 and self._evictable:
            victim = self._evictable[0]
            k = min(victim.cached, deficit)
            victim.cached -= k
            self._cached_free -= k
            deficit -= k
            if victim.cached == 0:
                self._evictable.popleft()

    def _forget_cached(self, seq: Seq) -> None:
        if seq.cached:
            self._cached_free -= seq.cached
            seq.cached = 0
            try:
                self._evictable.remove(seq)
            except ValueError:
                pass

    # ------------------------------------------------------------------------------------------ stepping
    def plan_step(self) -> tuple[float, list[tuple[Seq, int]]] | None:
        """Schedule the next step at the current time; returns (duration, prefill chunks) or None if idle.

        Split from :meth:`commit_step` so the real-time server can sleep until the step ends.
        """
        # Called once a request in a closed loop (its admission step): the engine's containers, limits and the clock are
        # read into locals once (the containers are mutated, never replaced, while a step is planned)
        limits = self.limits
        bs = self._bs
        t = self.t
        running, waiting, arrivals = self.running, self.waiting, self._arrivals
        cutoff = t
        if limits.schedule_ahead and self._last_end == t and (running or waiting):
            cutoff = self._last_start  # this step was planned while the last one ran: later arrivals wait
        while arrivals and arrivals[0][0] <= cutoff:
            waiting.append(heapq.heappop(arrivals)[2])
        g = self.steps
        preempted_before = self.preemptions

        # Decoding sequences whose next KV slot opens a new block. At a few hundred users a dozen sequences cross a
        # block boundary every step. The fast path (a free block for each, no cached block to evict) is _take(1)
        # exactly, in any order; otherwise in the order (epoch, rid), preempting as _allocate does.
        bucket = self._blk_buckets[g % bs]
        if bucket:
            free = self.free_blocks
            if free - len(bucket) >= self._cached_free:
                nxt = g + bs  # the same bucket: nxt % bs == g % bs
                for seq in bucket.values():
                    if seq.blk_at == g:
                        free -= 1
                        seq.blocks += 1
                        seq.blk_at = nxt
                self.free_blocks = free
            else:
                for seq in self._due_blocks(g):
                    if seq.state != DECODE or seq.blk_at != g:
                        continue  # preempted while allocating for an earlier one
                    if self.free_blocks > self._cached_free and self.free_blocks >= 1:
                        self.free_blocks -= 1
                        seq.blocks += 1
                    elif not self._allocate(1, seq, g):
                        continue
                    seq.blk_at = g + bs

        n_ms = limits.scheduler_steps  # _locked(g) inlined (called every step)
        locked = n_ms > 1 and self.n_dec > 0 and (g - self._window_start) % n_ms != 0
        budget = 0 if locked else limits.max_num_batched_tokens - (self.n_dec if limits.mixed_prefill else 0)
        chunks: list[tuple[Seq, int]] = []
        prefill_tokens = 0
        pairs = 0
        for seq in list(self.prefilling.values()) if self.prefilling and budget > 0 else ():
            if budget <= 0:
                break
            if seq.state != PREFILL:
                continue  # preempted while allocating for an earlier one
            chunk = min(seq.target - seq.prefilled, budget)
            need = _blocks_for(seq.prefilled + chunk, bs) - seq.blocks - seq.shared
            if need > 0 and not self._allocate(need, seq, g):
                continue
            chunks.append((seq, chunk))
            budget -= chunk
            prefill_tokens += chunk
            pairs += chunk * seq.prefilled + chunk * (chunk + 1) // 2

        # vLLM V1 admits no waiting request in a step that had to preempt a running one (its scheduler
        # schedules WAITING only ``if not preempted_reqs``): otherwise the victim would be readmitted at once
        # and preempt the next, thrashing prefill recomputes whenever the KV cache runs full.
        admit = self.preemptions == preempted_before and not locked
        reserving = self.reserve_ratio > 0.0
        if reserving and admit and self.waiting:
            # prompt tokens the requests already prefilling will still need beyond what this step allocated
            pending = sum(q.target - q.prefilled for q in self.prefilling.values()) - prefill_tokens
        max_seqs, prefix_blocks, prefilling = limits.max_num_seqs, self.prefix_blocks, self.prefilling
        while admit and waiting and budget > 0 and len(running) < max_seqs:
            seq = waiting[0]
            # _admission(seq, budget) inline (once a request), with min() of two ints spelt out
            target = seq.target
            full = (target - 1) // bs
            shared = prefix_blocks if prefix_blocks < full else full
            own = seq.cached if seq.cached < full - shared else full - shared
            start = (shared + own) * bs
            chunk = target - start if target - start < budget else budget
            need = -(-(start + chunk) // bs) - shared - own
            if own + need > self.free_blocks:
                break  # FCFS: the head waits for blocks, nobody overtakes it
            if reserving:
                held = pending + self.reserve_ratio * self._remaining_output(g)
                if target - start + seq.output - seq.generated > self.free_blocks * bs - held:
                    break  # its whole prompt and output do not fit beside the running requests' reserve
                pending += target - start - chunk
            waiting.popleft()
            if seq.cached:
                self._forget_cached(seq)  # its own cached blocks are in use again (no longer free)
                self.free_blocks -= own
                if own:
                    self.recompute_hits += 1
            free = self.free_blocks = self.free_blocks - need  # _take(need): evicts only below the cached blocks
            if self._cached_free > free:
                self._take(0)
            seq.blocks = own + need
            seq.shared = shared
            seq.state = PREFILL
            seq.prefilled = start
            if shared:
                self.prefix_hits += 1
            rid = seq.rid
            running[rid] = seq
            prefilling[rid] = seq
            self._out_sum += seq.output
            seq.res_c = seq.generated
            self._gen_const += seq.res_c
            if seq.first_sched is None:
                seq.first_sched = t
            chunks.append((seq, chunk))
            budget -= chunk
            prefill_tokens += chunk
            pairs += chunk * start + chunk * (chunk + 1) // 2

        # A chunk scheduled earlier may belong to a request preempted later in this planning pass (only a preemption
        # changes a prefilling request's state here: without one, no chunk needs looking at).
        if self.preemptions != preempted_before and any(s.state != PREFILL for s, _ in chunks):
            chunks = [(s, c) for s, c in chunks if s.state == PREFILL]
            prefill_tokens = sum(c for _, c in chunks)
            pairs = sum(c * s.prefilled + c * (c + 1) // 2 for s, c in chunks)

        if prefill_tokens == 0 and self.n_dec == 0:
            if self._arrivals and self._arrivals[0][0] <= self.t:
                self._last_end = -1.0  # nothing ran ahead of them after all: an idle engine plans at once
                return self.plan_step()
            self.reserve_ratio = self.limits.admission_reserve  # SGLang resets it whenever the server idles
            return None
        if prefill_tokens:
            self._window_start = g + 1  # multi-step: the next decode window starts after this prefill step
        if prefill_tokens and not limits.mixed_prefill and self.n_dec:
            self._pause_decoders(g)  # prefill first: this step decodes nothing
        decoding = 0 if self._decoding_paused else self.n_dec
        kv_read = self._dec_sum + self.n_dec * g if decoding else 0
        self.last_step = (prefill_tokens, decoding, kv_read)
        dt = self.costs.step_seconds(prefill_tokens, pairs, decoding, kv_read)
        return dt, chunks

    def _pause_decoders(self, g: int) -> None:
        """Prefill-first step ``g``: every decoding sequence sits it out. Each one's token run is closed at ``g − 1``
        and resumes at ``g + 1`` with the context it would have had at ``g``; their heap events move one step later.
        O(decoding sequences), paid only on the steps that pause them."""
        before, after, decode = g - 1, g + 1, DECODE  # locals: once per decoding user per paused step
        for seq in self.running.values():
            if seq.state != decode:
                continue
            start = seq.seg_start
            if start >= 0 and before >= start:
                seq.segments.append((start, before))
            seq.seg_start = after
            behind = g - seq.g_join  # tokens_at(g − 1) inlined (a decoding sequence): one call per user per step
            if behind > 0:
                seq.gen_at_join += behind
            seq.g_join = after
            seq.dec_c -= 1
            seq.res_c -= 1  # gen_at_join − g_join: one step later for the same tokens
            seq.blk_at += 1
        self._dec_sum -= self.n_dec
        self._gen_const -= self.n_dec
        self._decoding_paused = self.n_dec
        self._fin_off += 1  # every pending finish one step later (see _finish_heap)
        buckets = self._blk_buckets  # every member's blk_at moved one step on: its bucket is the next one
        self._blk_buckets = [buckets[-1], *buckets[:-1]]
        self._ghosts = [step + 1 for step in self._ghosts]

    def _admission(self, seq: Seq, budget: int) -> tuple[int, int, int, int]:
        """(shared prefix blocks, own cached blocks, first chunk, new blocks) to admit ``seq`` now. A cached shared
        prefix — and, after a preemption, the request's own blocks still cached — is not recomputed; at least one
        token always is, to sample from."""
        bs = self._bs
        full = (seq.target - 1) // bs
        shared = min(self.prefix_blocks, full)
        own = min(seq.cached, full - shared)
        start = (shared + own) * bs
        chunk = min(seq.target - start, budget)
        return shared, own, chunk, -(-(start + chunk) // bs) - shared - own  # _blocks_for inline (once an admission)

    def _remaining_output(self, g: int) -> int:
        """Tokens the running requests have still to emit before step ``g`` (their outputs less what they emitted)."""
        return self._out_sum - (self._gen_const + self.n_dec * g)

    def _decay_reserve(self, steps: int) -> None:
        """SGLang's new_token_ratio falls linearly to its floor over the decay steps, one decode step at a time."""
        floor, n = self.limits.admission_reserve_floor, self.limits.admission_reserve_decay_steps
        if floor is None or not n or self.reserve_ratio <= floor:
            return
        step = (self.limits.admission_reserve - floor) / n
        self.reserve_ratio = max(floor, self.reserve_ratio - step * steps)

    def _finish_step(self, seq: Seq) -> int:
        return seq.g_join + (seq.output - seq.gen_at_join) - 1

    def _due_blocks(self, g: int) -> list[Seq]:
        """Decoding sequences whose next token opens a KV block at step ``g``, in the order (epoch, rid)."""
        due = [seq for seq in self._blk_buckets[g % self.limits.block_size].values() if seq.blk_at == g]
        due.sort(key=lambda seq: (seq.epoch, seq.rid))
        return due

    def _next_block_event(self, g: int) -> int:
        """The first step at or after ``g`` with a block event, or with the ghost of one (see ``_blk_buckets``): where
        a run of decode steps ends when blocks are not opened inline (``_blocks_inline``)."""
        ghosts = self._ghosts
        while ghosts and ghosts[0] < g:  # a ghost's step has been stepped past: its entry would have been dropped
            heapq.heappop(ghosts)
        best = ghosts[0] if ghosts else 1 << 62
        bs, buckets = self.limits.block_size, self._blk_buckets
        for at in range(g, min(best, g + bs + 1)):  # every pending event lies within a block's steps (+1 after a pause)
            for seq in buckets[at % bs].values():
                if seq.blk_at == at and at <= self._finish_step(seq):
                    return at
        return best

    def commit_step(self, dt: float, chunks: list[tuple[Seq, int]]) -> None:
        """Complete the planned step: advance time, emit tokens, finish requests."""
        # once a request in a closed loop (its admission step): the attributes it reads more than once are locals
        bs = self._bs
        g = self.steps
        self.steps = g + 1
        record = self.record_steps
        if record:
            self.step_end.append(self.t + dt)
            self.step_dt.append(dt)
            self.step_blocks.append(self._kv_blocks - self.free_blocks)
            self.step_waiting.append(len(self.waiting))
            self.step_running.append(len(self.running))
        self._last_start = self.t
        self.t += dt
        t = self._last_end = self.t
        paused, self._decoding_paused = self._decoding_paused, 0
        emitted = 0 if paused else self.n_dec
        on_token = self.on_token
        if on_token is not None and not paused:
            for seq in self.running.values():
                if seq.state == DECODE:
                    on_token(seq, seq.tokens_at(g), t)

        finish_heap = self._finish_heap
        for seq, chunk in chunks:
            if seq.state != PREFILL:
                continue  # aborted meanwhile
            self.prompt_tokens_computed += chunk
            seq.prefilled += chunk
            if seq.prefilled < seq.target:
                continue
            # Prefill complete: this step sampled the next token.
            del self.prefilling[seq.rid]
            want = self._prefix_want
            if want and self.prefix_blocks < want and not seq.shared and seq.blocks > want:
                # The first request to compute the shared prefix leaves its blocks in the cache for the others.
                seq.blocks -= want
                self.prefix_blocks = want
            emitted += 1
            generated = seq.generated = seq.generated + 1
            seq.seg_start = g
            if seq.first_token_t is None:
                seq.first_token_t = t
            if on_token is not None:
                on_token(seq, generated, t)
            if generated >= seq.output:
                self._finish(seq, g)
                continue
            ctx = seq.target  # KV held; the sampled token's KV is written by the next step
            seq.state = DECODE
            g_join = seq.g_join = g + 1
            seq.gen_at_join = generated
            dec_c = seq.dec_c = ctx - g_join + 1
            self.n_dec += 1
            self._dec_sum += dec_c
            self._gen_const += generated - g_join - seq.res_c
            seq.res_c = generated - g_join
            fin = g_join + (seq.output - generated) - 1  # _finish_step(seq) inline
            heapq.heappush(finish_heap, (fin - self._fin_off, seq.epoch, seq.rid))
            blk_at = seq.blk_at = g + (-ctx) % bs + 1  # past fin: no block to open before it finishes
            self._blk_buckets[blk_at % bs][seq.rid] = seq

        if finish_heap and finish_heap[0][0] + self._fin_off <= g:  # most steps finish nobody: no generator for them
            self._finish_due(g)

        self.generation_tokens += emitted
        if record:
            self.step_tokens.append(emitted)
        if self.last_step[1] and self.limits.admission_reserve_floor is not None:
            self._decay_reserve(1)  # a decode step (SGLang decays new_token_ratio once per decode batch)

    def _finish_due(self, g: int) -> None:
        """Finish the decoding sequences whose last token came with step ``g`` (just completed; ``self.t`` its end)."""
        heap, running = self._finish_heap, self.running  # _due inline (a generator per finishing step cost more)
        due = g - self._fin_off  # the heap's steps are less the offset (see _finish_heap)
        pop = heapq.heappop
        while heap and heap[0][0] <= due:
            _, epoch, rid = pop(heap)
            seq = running.get(rid)
            if seq is not None and seq.epoch == epoch and seq.state == DECODE:
                seq.generated = seq.output
                self._remove_running(seq)  # _finish(seq, g) inline (once a request)
                seq.segments.append((seq.seg_start, g))
                seq.seg_start = -1
                seq.epoch = epoch + 1
                seq.state = FINISHED
                seq.finish_t = self.t
                if self.on_finish:
                    self.on_finish(seq)

    def _finish(self, seq: Seq, g: int) -> None:
        self._remove_running(seq)
        seq.segments.append((seq.seg_start, g))
        seq.seg_start = -1
        seq.epoch += 1
        seq.state = FINISHED
        seq.finish_t = self.t
        if self.on_finish:
            self.on_finish(seq)

    def _pure_decode(self) -> bool:
        """True when the next step only decodes and nothing can change before an event (virtual mode)."""
        if self.on_token is not None or self.prefilling or self.n_dec == 0:
            return False
        g = self.steps
        inline = self._inline_always or self._blocks_inline()
        finish_heap = self._finish_heap
        return self._pure_decode_rest(g, inline, finish_heap[0][0] + self._fin_off if finish_heap else 1 << 62)

    def _pure_decode_rest(self, g: int, inline: bool, nxt_finish: int) -> bool:
        """_pure_decode past its first checks (decoders, nothing prefilling, no token watched), with the step ``g``,
        ``_blocks_inline()`` and the next finish step (``1 << 62`` when none) worked out by the caller."""
        arrivals, t = self._arrivals, self.t
        if arrivals and arrivals[0][0] <= t:  # ready now: unless the next step was planned before (_planned_before)
            if not (self.limits.schedule_ahead and self._last_end == t and self._last_start < arrivals[0][0]):
                return False
        if not inline and self._next_block_event(g) <= g:
            return False
        if nxt_finish <= g and not (inline and nxt_finish == g):
            return False  # (a finish at g itself ends a run that opens its blocks inline: _decode_run)
        waiting = self.waiting
        if not waiting:
            return True
        if self.reserve_ratio > 0.0:
            return False  # whether the head fits beside the reserve changes with every emitted token
        if len(self.running) < self.limits.max_num_seqs and not self._locked(g):
            head = waiting[0]
            budget = self.limits.max_num_batched_tokens - self.n_dec
            _, own, _, need = self._admission(head, budget)
            if budget > 0 and own + need <= self.free_blocks:
                return False  # the head of the queue can be admitted now
        return True

    def _planned_before(self, ready: float) -> bool:
        """Whether the next step was planned before ``ready`` (schedule_ahead: it was planned when the last one started,
        back to back with it, as plan_step reads it): a request ready then cannot join it, and it only decodes."""
        return self.limits.schedule_ahead and self._last_end == self.t and self._last_start < ready

    def _blocks_inline(self) -> bool:
        """Whether a run of decode steps may open the KV blocks its sequences need itself (see _decode_run). Not while
        SGLang's admission reserve decays: a run decays it in one subtraction, a step at a time differs in the last
        bit, so runs keep ending at block events there as they always did."""
        floor = self.limits.admission_reserve_floor
        return floor is None or not self.limits.admission_reserve_decay_steps or self.reserve_ratio <= floor

    def _decode_cost(self, n: int) -> Callable[[int], float]:
        """``kv_read -> costs.step_seconds(0, 0, n, kv_read)`` (the cost model's precomputed form when it has one)."""
        fn = self._decode_costs.get(n)
        if fn is None:
            make = getattr(self.costs, "decode_seconds_fn", None)
            fn = self._decode_costs[n] = make(n) if make is not None else partial(self.costs.step_seconds, 0, 0, n)
        return fn

    def _decode_cost_array(self, n: int) -> Callable[[np.ndarray], np.ndarray] | None:
        """The same over an array of reads (None when the cost model has none). Worked out apart, and only for a run
        long enough to use it: a level meets most batch sizes in short runs only, and making both forms for every
        batch size was a tenth of a plan level's time."""
        key = (n, "array")
        if key not in self._decode_costs:
            make = getattr(self.costs, "decode_seconds_array", None)
            self._decode_costs[key] = make(n) if make is not None else None
        return self._decode_costs[key]

    def _decode_run(self, inline: bool | None = None, nxt_finish: int | None = None) -> bool:
        """Pure decode steps up to the next event (finish, arrival), without the scheduler; False if none ran.

        Same results as plan_step/commit_step for such steps, at a fraction of the cost: the common case
        of a full batch decoding for hundreds of steps. Sequences whose next token opens a KV block get it here
        when a block is free without evicting or preempting (plan_step's fast path, in the same order; at a
        few hundred users a dozen cross a block boundary every step, and those steps were most of a predicted
        level's time); otherwise the run ends and plan_step takes up the rest of that step's block events."""
        if nxt_finish is None:  # (step passes both, as _pure_decode worked them out just before)
            nxt_finish = self._finish_heap[0][0] + self._fin_off if self._finish_heap else 1 << 62
        if inline is None:
            inline = self._inline_always or self._blocks_inline()
        # A run that opens its blocks inline also runs the step at which the first request finishes (a pure decode
        # step like the others: plan_step would schedule it so) and finishes them after it, as commit_step does: that
        # step went through the scheduler once per request. Not where SGLang's reserve decays (a run decays it at once).
        until = nxt_finish + 1 if inline else min(nxt_finish, self._next_block_event(self.steps))
        n_ms = self._sched_steps
        if n_ms > 1 and self.waiting:  # multi-step: the scheduler looks at the queue when the window ends
            until = min(until, self.steps + ((self._window_start - self.steps) % n_ms or n_ms))
        arrival = self._arrivals[0][0] if self._arrivals else _INF
        n, base = self.n_dec, self._dec_sum
        cost = self._decode_costs.get(n) or self._decode_cost(n)  # _decode_cost's lookup inline (once a run)
        record = self.record_steps
        if (record and until - self.steps >= VECTOR_RUN_MIN and (cost_array := self._decode_cost_array(n)) is not None
                and (arrival == _INF or self._run_fits_vector(arrival, cost(base + n * self.steps)))):
            if not self._decode_run_array(until, arrival, inline, cost_array):
                return False
            if self.steps == nxt_finish + 1:
                self._finish_due(nxt_finish)
            return True
        kv_blocks, bs = self._kv_blocks, self._bs
        blocks = kv_blocks - self.free_blocks
        buckets = self._blk_buckets
        if record:
            ends, dts, used = self.step_end.append, self.step_dt.append, self.step_blocks.append
        else:  # the long-running server keeps no history: this run's steps go to a list dropped when it ends
            sink: list[float] = []
            ends = dts = used = sink.append
        cached_free = self._cached_free  # constant over a run: only eviction, preemption and admission change it
        g0 = g = self.steps
        t = self.t
        kv = base + n * g  # the step's context read, base + n·g, kept as a running sum (the same integers)
        # a step runs here while it was planned before the next arrival is ready: it starts before it, or (schedule
        # ahead) the step before it, back to back, did (plan_step's cutoff). A step is planned as the one before it
        # starts, so with schedule_ahead that is the last step's start (``start``); without, only ``t`` counts
        # (``start`` is then compared with −inf: never before).
        ahead = self._ahead
        start = self._last_start if ahead and self._last_end == t else _INF
        cut = arrival if ahead else float("-inf")
        while g < until and (t < arrival or start < cut):
            if inline and (bucket := buckets[g % bs]):
                free = self.free_blocks
                if free - len(bucket) >= cached_free:  # _open_blocks' fast path inline (once a step at tens of users)
                    nxt = g + bs
                    for seq in bucket.values():
                        if seq.blk_at == g:
                            seq.blocks += 1
                            seq.blk_at = nxt
                            free -= 1
                    self.free_blocks = free
                elif self._open_blocks(g) is None:
                    break  # evict or preempt: plan_step's _allocate
                blocks = kv_blocks - self.free_blocks
            dt = cost(kv)
            dts(dt)
            used(blocks)
            start = t  # the next step is planned as this one starts (schedule_ahead)
            t += dt
            ends(t)
            kv += n
            g += 1
        if g == g0:
            return False
        if record:  # constant over the run
            if g == g0 + 1:  # (a run of one step: 4 in 10 at a closed loop's load)
                self.step_waiting.append(len(self.waiting))
                self.step_running.append(len(self.running))
                self.step_tokens.append(n)
            else:
                self.step_waiting.extend([len(self.waiting)] * (g - g0))
                self.step_running.extend([len(self.running)] * (g - g0))
                self.step_tokens.extend([n] * (g - g0))
        self.last_step = (0, n, base + n * (g - 1))
        self.generation_tokens += n * (g - g0)
        if self._reserve_floor is not None:  # (_decay_reserve returns at once without a floor)
            self._decay_reserve(g - g0)
        self.steps, self.t = g, t
        self._last_start, self._last_end = start, t
        if g == nxt_finish + 1:
            self._finish_due(nxt_finish)
        return True

    def _run_fits_vector(self, arrival: float, first: float) -> bool:
        """Whether as many steps as VECTOR_RUN_MIN may start before ``arrival``, the first lasting ``first`` seconds and
        none less (the bound _decode_run_array cuts its steps to): where fewer can, the run is stepped one at a time
        (the same floats), not with numpy's fixed cost for a few steps (two thirds of the numpy runs of a plan's
        levels, issue 27)."""
        if arrival == _INF or not first > 0.0:
            return True
        return int((arrival - self.t) / first) + 2 >= VECTOR_RUN_MIN

    def _open_blocks(self, g: int) -> int | None:
        """Open the KV blocks due at step ``g`` of a run of decode steps, taking free blocks only (no eviction, no
        preemption): how many, or None when they ran short (those before in (epoch, rid) order are opened, and
        plan_step takes up the rest of step ``g``)."""
        bs, bucket = self.limits.block_size, self._blk_buckets[g % self.limits.block_size]
        opened = 0
        if self.free_blocks - len(bucket) >= self._cached_free:  # a block for every member: order does not matter
            for seq in bucket.values():
                if seq.blk_at == g:
                    seq.blocks += 1
                    seq.blk_at = g + bs
                    opened += 1
            self.free_blocks -= opened
            return opened
        for seq in self._due_blocks(g):
            if not (self.free_blocks > self._cached_free and self.free_blocks >= 1):
                return None
            self.free_blocks -= 1
            seq.blocks += 1
            seq.blk_at = g + bs
            opened += 1
        return opened

    def _open_run_blocks(self, g0: int, g_end: int, opened: list[int]) -> int:
        """Open the KV blocks due in steps [g0, g_end) of a run of decode steps (``opened[j]``: blocks opened at
        step g0 + j); the steps run: g_end − g0, or fewer where free blocks ran short (``_open_blocks``). Every event
        of the run lies at or before its sequence's finish step (the run ends with the first finish step)."""
        bs, buckets = self.limits.block_size, self._blk_buckets
        total, spare = 0, self.free_blocks - self._cached_free
        for bucket in buckets:
            for seq in bucket.values():
                if seq.blk_at < g_end:
                    total += (g_end - 1 - seq.blk_at) // bs + 1
            if total > spare:
                break  # short already: the step-by-step path below (where the KV cache is full, every run of a level
                # ended here after counting every running request's events, issue #27)
        if total <= spare:  # every event finds a free block: one sequence at a time
            for bucket in buckets:
                for seq in bucket.values():
                    at = seq.blk_at
                    while at < g_end:
                        opened[at - g0] += 1
                        at += bs
                    seq.blocks += (at - seq.blk_at) // bs
                    seq.blk_at = at
            self.free_blocks -= total
            return g_end - g0
        for g in range(g0, g_end):  # they run short somewhere: step by step, in order
            if buckets[g % bs]:
                got = self._open_blocks(g)
                if got is None:
                    return g - g0  # evict or preempt: plan_step's _allocate takes up step g
                opened[g - g0] = got
        return g_end - g0

    def _decode_run_array(self, until: int, arrival: float, inline: bool, cost: Callable[[np.ndarray], np.ndarray]) -> bool:
        """_decode_run over a long run with numpy: the steps' durations at once, their end times by a running sum (the
        same additions in the same order as stepping), the KV block events as in _decode_run."""
        n, base, g0 = self.n_dec, self._dec_sum, self.steps
        k = min(until - g0, VECTOR_RUN_MAX)
        if arrival == _INF and inline:
            return self._decode_run_array_blocks_first(k, cost)
        if arrival != _INF:
            # No more steps than fit before the arrival (and two to spare): a step lasts at least as long as the first
            # (its context read only grows), so the steps after that are never used; a closed loop's next user
            # arrives a few dozen steps on, and working out thousands of durations was most of this call.
            first = self._decode_cost(n)(g0 * n + base)  # the scalar form: the same float, without numpy's fixed cost
            if first > 0.0:
                k = min(k, max(1, int((arrival - self.t) / first) + 2))
        dt = cost(np.arange(g0, g0 + k, dtype=np.int64) * n + base)
        ends = np.empty(k + 1)
        ends[0] = self.t
        ends[1:] = dt
        np.cumsum(ends, out=ends)  # ends[j]: the time step g0 + j starts (t += dt, one step after another)
        steps = k
        if arrival != _INF:
            before = int(np.searchsorted(ends, arrival, side="left"))  # the steps that start before the arrival
            if self.limits.schedule_ahead and (before or self._planned_before(arrival)):
                before += 1  # and the one after them, planned as the last of them started (as in _decode_run)
            steps = min(k, before)
        opened = [0] * steps  # blocks opened at each step
        used = self.limits.kv_blocks - self.free_blocks  # blocks in use before the run
        if inline and steps:
            steps = self._open_run_blocks(g0, g0 + steps, opened)
        if steps == 0:
            return False
        self._commit_array_run(steps, ends, dt, opened, used)
        return True

    def _commit_array_run(self, steps: int, ends: np.ndarray, dt: np.ndarray, opened: list[int], used: int) -> None:
        """Record the first ``steps`` steps of an array run (``ends``: their start times and the last one's end, ``dt``:
        their durations, ``opened``: blocks opened at each, ``used``: blocks in use before it) and move the clock on."""
        n, base, g0 = self.n_dec, self._dec_sum, self.steps
        self.step_end.frombytes(ends[1 : steps + 1].tobytes())  # the same doubles, without a Python float each
        self.step_dt.frombytes(np.asarray(dt[:steps], dtype=np.float64).tobytes())
        self.step_blocks.extend(itertools.islice(itertools.accumulate(opened[:steps], initial=used), 1, None))
        self.step_waiting.extend([len(self.waiting)] * steps)
        self.step_running.extend([len(self.running)] * steps)
        self.step_tokens.extend([n] * steps)
        self.last_step = (0, n, base + n * (g0 + steps - 1))
        self.generation_tokens += n * steps
        self._decay_reserve(steps)
        self.steps, self.t = g0 + steps, float(ends[steps])
        self._last_start, self._last_end = float(ends[steps - 1]), self.t

    def _decode_run_array_blocks_first(self, k: int, cost: Callable[[np.ndarray], np.ndarray]) -> bool:
        """_decode_run_array's run of up to ``k`` steps where no arrival can cut it: its KV blocks are opened first, and
        only the steps that then run get durations worked out. The same steps, floats and state as working out all ``k``
        first (a step's duration depends on its index alone; a running sum's first terms do not depend on its length),
        but where the KV cache is full a run ends after a few steps of hundreds (a level at 128 users of 16k prompts:
        37,000 such runs, most of its time in durations never used; issue #27)."""
        n, base, g0 = self.n_dec, self._dec_sum, self.steps
        opened = [0] * k  # blocks opened at each step
        used = self.limits.kv_blocks - self.free_blocks  # blocks in use before the run
        steps = self._open_run_blocks(g0, g0 + k, opened)
        if steps == 0:
            return False
        dt = cost(np.arange(g0, g0 + steps, dtype=np.int64) * n + base)
        ends = np.empty(steps + 1)
        ends[0] = self.t
        ends[1:] = dt
        np.cumsum(ends, out=ends)  # ends[j]: the time step g0 + j starts (t += dt, one step after another)
        self._commit_array_run(steps, ends, dt, opened, used)
        return True

    def step(self) -> bool:
        """Run one step in virtual time (jumping over idle time to the next arrival). False when no work."""
        if self.fast_decode and self.n_dec and not self.prefilling and self.on_token is None:
            # _pure_decode inline, then _decode_run with what it worked out (a run of pure decode steps is 1–2 steps
            # long at a closed loop's tens of users, so the calls and the work done twice were a good part of one)
            g = self.steps
            inline = self._inline_always or self._blocks_inline()
            finish_heap = self._finish_heap
            nxt_finish = finish_heap[0][0] + self._fin_off if finish_heap else 1 << 62
            if self._pure_decode_rest(g, inline, nxt_finish) and self._decode_run(inline, nxt_finish):
                return True
        while True:
            planned = self.plan_step()
            if planned is not None:
                self.commit_step(*planned)
                return True
            nxt = self.next_arrival
            if nxt is None:
                return False
            self.t = max(self.t, nxt)

    def drain_end(self) -> int | None:
        """The step count at which this engine would run out of work, when from here on it can only decode the
        running requests to their ends: nothing waits, arrives or prefills, every KV block they still open is free
        (no eviction, no preemption), and no token is watched (``on_token``). Then each request finishes at its own
        step and the last of them ends the run, whatever the steps cost: the predictor's closed loop asks this
        once its measured requests are done, instead of simulating the unmeasured ones to the end (a quarter of a
        level's steps) only to count them (``simulate_concurrency``). None otherwise (step on to find out).

        The next step must also take time (a positive duration): its end then lies after every step so far, so a
        summary window that closes now reads the same steps as after the full run."""
        if self.on_token is not None or self._arrivals or self.waiting or self.prefilling or not self.record_steps:
            return None
        if not self.running:
            return self.steps
        bs, running = self.limits.block_size, self.running
        last = -1
        for seq in running.values():
            if seq.state != DECODE:
                return None
            last = max(last, self._finish_step(seq))
        need = 0
        for seq in running.values():  # the blocks each still opens, its next one at blk_at
            fin = self._finish_step(seq)
            if seq.blk_at <= fin:
                need += (fin - seq.blk_at) // bs + 1
        if need > self.free_blocks - self._cached_free:
            return None  # some request may have to evict or preempt: only stepping says what follows
        cost = self._decode_cost(self.n_dec)
        if not cost(self._dec_sum + self.n_dec * self.steps) > 0.0:
            return None
        return last + 1

    def run(self, max_steps: int = 50_000_000) -> None:
        """Step until every request has finished (bounded, so a bug cannot spin forever)."""
        for _ in range(max_steps):
            if not self.step():
                return
        raise RuntimeError("simulation did not finish within its step bound")
