import Dispatch
import Foundation
import Observation
import SharingCore
import SharingDependencies
import SharingPersistence
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How long a change another program makes to a file takes to reach a `@Shared` value on
/// it, on the real disk, compared with how long the kernel takes to tell a bare watcher.
func fileStorageLatencySuite() -> Suite {
  let series = Once { externalWriteLatencies(count: 200) }
  func percentile(_ fraction: Double, of samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[max(rank - 1, 0)]
  }
  return Suite(
    name: "fileStorage, an external write until @Shared has it",
    unit: .milliseconds,
    benchmarks: [
      Benchmark(
        name: "p50 of 200 writes",
        workload: .value { percentile(0.5, of: series().shared) },
        baselineName: "inotify reader thread, p50",
        baseline: .value { percentile(0.5, of: series().floor) },
        target: .none
      ),
      Benchmark(
        name: "p99 of 200 writes",
        workload: .value { percentile(0.99, of: series().shared) },
        baselineName: "inotify reader thread, p99",
        baseline: .value { percentile(0.99, of: series().floor) },
        target: .atMost(50)
      ),
      Benchmark(
        name: "max of 200 writes",
        workload: .value { series().shared.max() ?? .nan },
        baselineName: "inotify reader thread, max",
        baseline: .value { series().floor.max() ?? .nan },
        target: .none
      ),
    ],
    notes: [
      "Each write replaces the file as editors do (a new file renamed over it); time runs",
      "from the `rename` until Observation reports the new value, decoded, on a",
      "`@Shared(.fileStorage(url))`. The floor is a thread of the benchmark blocked on its",
      "own inotify descriptor for the same directory, woken by the same rename.",
    ]
  )
}

/// Replaces a file `count` times; returns, for each, the nanoseconds until a shared value
/// on it had the new value, and until a bare inotify reader heard of it.
private func externalWriteLatencies(count: Int) -> (shared: [Double], floor: [Double]) {
  let directory = makeBenchmarkDirectory("latency")
  let url = directory.appendingPathComponent("value.json")
  let temporary = directory.appendingPathComponent("value.json.new")
  try? Data("0".utf8).write(to: url)
  let watcher = BareWatcher(directory: directory.path, name: url.lastPathComponent)
  defer { watcher.stop() }

  return withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    let shared = Shared(wrappedValue: 0, FileStorageKey<Int>.fileStorage(url))
    var latencies: [Double] = []
    var floors: [Double] = []
    for value in 1...count {
      let changed = DispatchSemaphore(value: 0)
      let changedAt = Timestamp()
      withObservationTracking {
        blackHole(shared.wrappedValue)
      } onChange: {
        changedAt.record()
        changed.signal()
      }
      try? Data("\(value)".utf8).write(to: temporary)
      let start = now()
      rename(temporary.path, url.path)
      let heard = watcher.wait()
      guard changed.wait(timeout: .now() + .seconds(2)) == .success else {
        latencies.append(2e9)
        continue
      }
      // NB: Observation reports the change just before the value is stored.
      while shared.wrappedValue != value { sched_yield() }
      latencies.append(Double(changedAt.time - start))
      floors.append(heard.map { Double($0 - start) } ?? .nan)
    }
    return (latencies, floors)
  }
}

/// A time noted on one thread and read on another.
private final class Timestamp: Sendable {
  private let value = Atomic<UInt64>(0)

  var time: UInt64 { value.load(ordering: .acquiring) }

  func record() {
    value.store(now(), ordering: .releasing)
  }
}

/// A thread blocked on an inotify descriptor of its own, noting when it hears that a file
/// was renamed into a directory: the least time any watcher can take.
private final class BareWatcher: Sendable {
  private let descriptor: Int32
  private let watch: Int32
  private let heard = DispatchSemaphore(value: 0)
  private let heardAt = Timestamp()
  private let isStopped = Atomic<Bool>(false)

  init(directory: String, name: String) {
    descriptor = inotify_init1(Int32(IN_CLOEXEC))
    watch = inotify_add_watch(descriptor, directory, UInt32(IN_MOVED_TO))
    let thread = Thread { [self] in readEvents(name: name) }
    thread.start()
  }

  /// The time the next rename was heard, or `nil` if it was not within a second.
  func wait() -> UInt64? {
    heard.wait(timeout: .now() + .seconds(1)) == .success ? heardAt.time : nil
  }

  /// Ends the thread: removing the watch wakes it with a last event.
  func stop() {
    isStopped.store(true, ordering: .releasing)
    inotify_rm_watch(descriptor, watch)
  }

  private func readEvents(name: String) {
    let capacity = 4_096
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    defer {
      buffer.deallocate()
      close(descriptor)
    }
    while !isStopped.load(ordering: .acquiring) {
      let count = read(descriptor, buffer, capacity)
      guard count > 0 else { return }
      var offset = 0
      while offset + 16 <= count {
        let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
        let entry =
          length > 0
          ? String(cString: buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self))
          : ""
        if entry == name {
          heardAt.record()
          heard.signal()
        }
        offset += 16 + length
      }
    }
  }
}
