// Entry of a plugin VM's worker thread. Operations arrive on the worker port while the worker is
// idle. A host function posts its request and blocks on Atomics.wait until the main thread
// answers on the sync port; while it waits, the main thread may ask it to run nested operations
// (a Lua callback called from inside the host function).
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Engine, type HostReply } from './engine.js';
import { SIGNAL_SLOT, type IdleMessage, type Operation, type SyncMessage, type WorkerMessage, type WorkerSetup } from '../protocol.js';

const { setup, syncPort } = workerData as { setup: WorkerSetup; syncPort: MessagePort };
const control = new Int32Array(setup.control);
const port = parentPort!;

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

function waitSync(): SyncMessage {
  for (;;) {
    const got = receiveMessageOnPort(syncPort);
    if (got) return got.message as SyncMessage;
    Atomics.wait(control, SIGNAL_SLOT, 0);
    Atomics.store(control, SIGNAL_SLOT, 0);
  }
}

/** Anything but a Lua error escaping the engine means the wasm state can no longer be trusted. */
function fatal(e: unknown): never {
  post({ t: 'fatal', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  process.exit(1);
}

let engine: Engine;

function run(seq: number, deadline: number, operation: Operation): void {
  let result;
  try {
    result = engine.run(seq, deadline, operation);
  } catch (e) {
    fatal(e);
  }
  post({ t: 'done', seq, result, memoryUsed: engine.memoryUsed(), hookChecks: engine.hookChecks });
}

async function start(): Promise<void> {
  try {
    engine = await Engine.create(setup, {
      callHost(fn, args, refs, coroutine): HostReply {
        post({ t: 'host', fn, args, refs, coroutine });
        for (;;) {
          const msg = waitSync();
          if (msg.t === 'reply') return msg;
          run(msg.seq, msg.deadline, msg.operation);
        }
      },
      log(level, message) {
        post({ t: 'log', level, message });
      },
    });
  } catch (e) {
    fatal(e);
  }
  port.on('message', (msg: IdleMessage) => {
    if (msg.t === 'release') engine.release(msg.refs);
    else run(msg.seq, msg.deadline, msg.operation);
  });
  post({ t: 'ready' });
}

// The bundle runs as a CommonJS script (an eval worker), so no top-level await.
void start();
