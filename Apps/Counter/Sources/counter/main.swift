// counter: a counter that survives between runs, and how many times it was launched, both
// kept in user defaults with '@Shared(.appStorage(…))'.
//
//   swift run counter                  Count: 0, launched 1 time
//   swift run counter increment 5      Count: 5
//   swift run counter reset            Count: 0

import CommandLineSupport
import CounterKit
import SharingDependencies
import SharingPersistence

let terminal = Terminal(program: "counter")
let arguments = CounterArguments.parseOrExit(on: terminal)

if let path = arguments.storePath {
  guard let store = CounterStore.userDefaults(atPath: path) else {
    terminal.fail("Cannot keep values in '\(path)'.")
  }
  prepareDependencies { $0.defaultAppStorage = store }
}

// NB: Created once the store is chosen: each '@Shared(.appStorage(…))' reads the default
//     store when it is created. Changes are written to disk when the program exits.
let counter = Counter()
counter.recordLaunch()

switch arguments.command {
case .show:
  let times = counter.launchCount == 1 ? "time" : "times"
  terminal.say("Count: \(counter.count)")
  terminal.say("Launched \(counter.launchCount) \(times)")
case .increment(let amount):
  do {
    try counter.increment(by: amount)
  } catch {
    terminal.fail("\(error)")
  }
  terminal.say("Count: \(counter.count)")
case .reset:
  counter.reset()
  terminal.say("Count: \(counter.count)")
}
