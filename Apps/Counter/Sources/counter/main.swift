// counter: a counter that survives between runs, and how many times it was launched, both
// kept in user defaults with '@Shared(.appStorage(…))'.
//
//   swift run counter                  Count: 0, launched 1 time
//   swift run counter increment 5      Count: 5
//   swift run counter reset            Count: 0

import CounterKit
import Foundation
import SharingDependencies
import SharingPersistence

/// Prints a message on standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
  FileHandle.standardError.write(Data("counter: \(message)\n".utf8))
  exit(status)
}

let arguments: CounterArguments
do {
  arguments = try CounterArguments(parsing: CommandLine.arguments.dropFirst())
} catch {
  fail("\(error)\n\n\(CounterArguments.usage)", status: 64)
}

if arguments.command == .help {
  print(CounterArguments.usage)
  exit(0)
}

if let path = arguments.storePath {
  guard let store = CounterStore.userDefaults(atPath: path) else {
    fail("Cannot keep values in '\(path)'.")
  }
  prepareDependencies { $0.defaultAppStorage = store }
}

// NB: Created once the store is chosen: each '@Shared(.appStorage(…))' reads the default
//     store when it is created. Changes are written to disk when the program exits.
let counter = Counter()
counter.recordLaunch()

switch arguments.command {
case .show, .help:
  let times = counter.launchCount == 1 ? "time" : "times"
  print("Count: \(counter.count)")
  print("Launched \(counter.launchCount) \(times)")
case .increment(let amount):
  do {
    try counter.increment(by: amount)
  } catch {
    fail("\(error)")
  }
  print("Count: \(counter.count)")
case .reset:
  counter.reset()
  print("Count: \(counter.count)")
}
