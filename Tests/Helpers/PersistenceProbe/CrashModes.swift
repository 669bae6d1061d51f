import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Synchronization

/// `file-write-loop <path> <acks> [<count>]`: loads a ``Payload`` file, then writes the next
/// sequence number with `save()` (and the throttled save of `withLock`) in a tight loop,
/// appending each sequence number to `<acks>` once its `save()` returned. Stops after
/// `<count>` writes if given; otherwise runs until killed. Exits with status 3 if the file
/// does not decode to a consistent payload.
func writeLoop(path: String, acks: String, count: Int?) async {
  @Shared(.fileStorage(URL(fileURLWithPath: path))) var payload = Payload(sequence: 0)
  if let error = $payload.loadError { fail("The file did not decode: \(error)", status: 3) }
  guard payload.isConsistent else { fail("The file decoded to a torn payload", status: 3) }
  let log = LineLog(path: acks)
  var sequence = payload.sequence
  var written = 0
  while count.map({ written < $0 }) ?? true {
    sequence += 1
    let next = Payload(sequence: sequence)
    $payload.withLock { $0 = next }
    do {
      try await $payload.save()
    } catch {
      fail("save() failed: \(error)")
    }
    log.append("\(sequence)")
    written += 1
  }
}

/// `file-pending <path> <ready> <signals>`: writes 1 with `save()`, then changes the value to
/// 2 without saving it, on a storage whose throttled writes only happen when flushed, so that
/// 2 stays pending until the process exits. Creates `<ready>`, then waits to be stopped.
///
/// `<signals>` is `default` (SIGTERM and SIGINT keep their default action), `exit-on-signal`
/// (the program turns SIGTERM and SIGINT into a normal `exit(0)`, as an app that wants
/// pending writes flushed on those signals does), or `exit` to exit normally at once.
func pendingWrite(path: String, ready: String, signals: String) async {
  let storage = FileStorage.fileSystem(scheduler: ManualWriteScheduler())
  await withDependencies {
    $0.defaultFileStorage = storage
  } operation: {
    @Shared(.fileStorage(URL(fileURLWithPath: path))) var value = 0
    $value.withLock { $0 = 1 }
    do {
      try await $value.save()
    } catch {
      fail("save() failed: \(error)")
    }
    $value.withLock { $0 = 2 }
  }
  switch signals {
  case "default":
    touch(ready)
    while true { sleep(60) }
  case "exit-on-signal":
    exitOnTermination(ready: ready)
  case "exit":
    touch(ready)
    exit(0)
  default:
    fail("Unknown signal handling: \(signals)")
  }
}

/// Makes SIGTERM and SIGINT end the process with `exit(0)`, which runs `atexit` handlers;
/// creates `<ready>` once they do.
///
/// The handler only sets a flag that the main thread polls: `exit` is not safe to call from
/// a signal handler. (A dispatch signal source would do too in an app, but it registers
/// asynchronously, and a test signals as soon as the probe is ready.)
func exitOnTermination(ready: String) -> Never {
  for signalNumber in [SIGTERM, SIGINT] {
    signal(signalNumber) { _ in terminationRequested.store(true, ordering: .relaxed) }
  }
  touch(ready)
  while !terminationRequested.load(ordering: .relaxed) { usleep(1_000) }
  exit(0)
}

private let terminationRequested = Atomic<Bool>(false)
