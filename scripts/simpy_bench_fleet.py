#!/usr/bin/env python3
"""SimPy baseline for RetryStorm's `bench-fleet` experiment (experiments/bench-fleet.yaml).

A benchmark baseline, not part of the product: the same model written the way a competent
engineer would write it in SimPy, so that RetryStorm's speed can be quoted against a typical
Python discrete-event model ("RetryStorm vs SimPy").

Run:
    pip install simpy; python3 scripts/simpy_bench_fleet.py --clients 10000

Model (as in bench-fleet.yaml, scaled to N clients):
  * N clients start operations as a Poisson process at 0.01/s each; one generator produces the
    aggregate Poisson stream of rate 0.01*N (equivalent in distribution).
  * One server, one worker, unbounded FIFO queue, nominal capacity C = N/50 requests/s,
    exponential service: work w ~ Exp(1) units, one unit takes 1/C s at full capacity. Capacity
    profile f(t): 1.0 before 60 s, 0.1 in [60, 120), linear 0.1 -> 1.0 over [120, 240), 1.0 after.
    A request starting at s finishes at the T with  integral_s^T C*f(t) dt = w  (inverted exactly).
  * Each attempt sends a request and waits at most 2 s. A late answer is abandoned, but the server
    still serves the request (wasted work). Up to 6 attempts; the wait before retry n is uniform in
    [0, min(60, 2**(n-1))) s (full jitter). After the 6th failed attempt the operation gives up.
  * Horizon 600 s. Python's `random` seeded with --seed.

Output: a CSV header and one line
    clients,operations,attempts,succeeded,gave_up,served,sim_events,wall_s
where sim_events is the number of SimPy events the environment processed (popped from its event
queue and ran the callbacks of) before the horizon: every event SimPy schedules gets an id from
its counter, so processed = scheduled - still queued at the horizon - 1 (the horizon's own stop
event). This costs nothing per event, unlike wrapping env.step. wall_s is time.perf_counter()
around env.run().

--queue picks how the server's FIFO queue is held: `deque` (default) is a server process that
takes requests from a collections.deque and sleeps on an event when idle; `store` is a plain
simpy.Store, whose get() is list.pop(0) -- O(queue length), which dominates once the collapsed
server's backlog reaches hundreds of thousands of requests.

--no-gc turns off Python's cyclic garbage collector for the run (default: on, as in a typical
model). The collapsed server's backlog keeps a million abandoned requests alive at 100,000 clients,
and the collector's repeated scans of them then take most of the run time.
"""

import argparse
import gc
import random
import sys
import time
from collections import deque

import simpy

HORIZON = 600.0
RATE_PER_CLIENT = 0.01      # operations/s per client
CLIENTS_PER_CAPACITY = 50   # C = N / 50 requests/s
TIMEOUT = 2.0
MAX_ATTEMPTS = 6
BACKOFF_BASE = 1.0
BACKOFF_MAX = 60.0

# Capacity profile as (start time, fraction at start, slope) pieces; the last runs forever.
PROFILE = [
    (0.0, 1.0, 0.0),
    (60.0, 0.1, 0.0),
    (120.0, 0.1, 0.9 / 120.0),
    (240.0, 1.0, 0.0),
]


def finish_time(s, need):
    """The T >= s with integral_s^T f(t) dt = need (nominal-seconds), f the piecewise-linear PROFILE."""
    n = len(PROFILE)
    i = n - 1
    while PROFILE[i][0] > s:
        i -= 1
    t = s
    while True:
        t0, f0, slope = PROFILE[i]
        f = f0 + slope * (t - t0)          # fraction at t
        end = PROFILE[i + 1][0] if i + 1 < n else float("inf")
        avail = f * (end - t) + 0.5 * slope * (end - t) ** 2 if end != float("inf") else float("inf")
        if need <= avail:
            if slope == 0.0:
                return t + need / f
            # f*d + slope/2*d^2 = need, d >= 0 (f > 0 here); numerically stable root
            return t + 2.0 * need / (f + (f * f + 2.0 * slope * need) ** 0.5)
        need -= avail
        t = end
        i += 1


def fifo_server(env, queue_kind, work, served):
    """One worker and an unbounded FIFO queue serving at the capacity PROFILE: (send, server, waiting).

    send(event) queues a request; the server triggers its event once served, whether or not its
    sender still waits (an abandoned request is still served: wasted work). server is the process
    to start; waiting() is the queue's length. work() draws a request's work in nominal-seconds;
    served() counts a request served.
    queue_kind: `deque` or `store` (see --queue).
    """
    if queue_kind == "store":
        store = simpy.Store(env)

        def store_server():
            while True:
                answer = yield store.get()
                now = env.now
                yield env.timeout(finish_time(now, work()) - now)
                served()
                answer.succeed()

        return store.put, store_server, lambda: len(store.items)
    pending = deque()
    idle = [None]  # the event the idle server sleeps on, or None while it is busy

    def send(answer):
        pending.append(answer)
        wake = idle[0]
        if wake is not None:
            idle[0] = None
            wake.succeed()

    def server():
        while True:
            if not pending:
                idle[0] = env.event()
                yield idle[0]
            answer = pending.popleft()
            now = env.now
            yield env.timeout(finish_time(now, work()) - now)
            served()
            answer.succeed()

    return send, server, lambda: len(pending)


class Stats:
    __slots__ = ("operations", "attempts", "succeeded", "gave_up", "served")

    def __init__(self):
        self.operations = self.attempts = self.succeeded = self.gave_up = self.served = 0


def run(clients, seed, queue_kind):
    rng = random.Random(seed)
    expovariate = rng.expovariate
    uniform01 = rng.random
    env = simpy.Environment()
    stats = Stats()
    capacity = clients / CLIENTS_PER_CAPACITY
    work_scale = 1.0 / capacity  # nominal-seconds per unit of work

    # --- server -------------------------------------------------------------------------------
    def served():
        stats.served += 1

    send, server, _ = fifo_server(env, queue_kind, lambda: expovariate(1.0) * work_scale, served)

    # --- clients ------------------------------------------------------------------------------
    def operation():
        stats.operations += 1
        attempt = 1
        while True:
            stats.attempts += 1
            answer = env.event()
            send(answer)
            yield answer | env.timeout(TIMEOUT)
            if answer.triggered:          # answered within the timeout
                stats.succeeded += 1
                return
            if attempt == MAX_ATTEMPTS:
                stats.gave_up += 1
                return
            # full jitter: uniform in [0, min(max, base * 2^(attempt-1)))
            yield env.timeout(uniform01() * min(BACKOFF_MAX, BACKOFF_BASE * 2 ** (attempt - 1)))
            attempt += 1

    env.process(server())
    env.process(poisson_arrivals(env, RATE_PER_CLIENT * clients, expovariate, operation))
    events, wall = timed_run(env, HORIZON)
    return stats, events, wall


def poisson_arrivals(env, rate, expovariate, operation):
    """The aggregate Poisson stream of operations, `rate` a second: each starts `operation()`."""
    while True:
        yield env.timeout(expovariate(rate))
        env.process(operation())


def timed_run(env, horizon):
    """Runs `env` to `horizon`: (SimPy events processed, wall seconds of env.run)."""
    start = time.perf_counter()
    env.run(until=horizon)
    wall = time.perf_counter() - start
    # Events processed: ids handed out by the environment's event counter, less those still
    # queued at the horizon, less the horizon's stop event itself (SimPy 4 internals).
    scheduled = next(env._eid)
    return scheduled - len(env._queue) - 1, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queue", choices=("deque", "store"), default="deque")
    ap.add_argument("--no-gc", action="store_true", help="disable Python's cyclic GC for the run")
    args = ap.parse_args()
    if args.no_gc:
        gc.disable()
    stats, events, wall = run(args.clients, args.seed, args.queue)
    print("clients,operations,attempts,succeeded,gave_up,served,sim_events,wall_s")
    print(f"{args.clients},{stats.operations},{stats.attempts},{stats.succeeded},{stats.gave_up},"
          f"{stats.served},{events},{wall:.3f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
