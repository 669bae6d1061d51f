// counter: a counter that survives between runs, and how many times it was launched, both
// kept in user defaults with '@Shared(.appStorage(…))'. Counters started at once take turns
// (CounterLock), so that none loses another's count.
//
//   swift run counter                  Count: 0, launched 1 time
//   swift run counter increment 5      Count: 5
//   swift run counter reset            Count: 0

import CommandLineSupport
import CounterKit
import Foundation
import SharingDependencies
import SharingPersistence

let terminal = Terminal(program: "counter")
let arguments = CounterArguments.parseOrExit(on: terminal)
Termination.exitOnSignals()
let storeFile =
  arguments.storePath.map(CounterStore.file(forPath:)) ?? CounterStore.defaultFile()

// NB: Taken before the store is first read, and held until the process exits: counters
//     started at once run one after another, each from the last one's values. The lock file
//     is beside the store: where it cannot be created, the store cannot be written either,
//     even when Foundation does not say so (it writes nothing into /sys, and reports nothing).
var storeProblem: String?
do {
  try CounterLock.holdUntilExit(beside: storeFile)
} catch {
  storeProblem = FileProblem.reason(for: error, at: storeFile)
}
if let storeProblem, arguments.command != .show {
  terminal.fail("The count was not saved to \(storeFile.path): \(storeProblem).")
}

if let path = arguments.storePath {
  guard let store = CounterStore.userDefaults(atPath: path) else {
    terminal.fail("Cannot keep values in '\(path)'.")
  }
  prepareDependencies { $0.defaultAppStorage = store }
}

// NB: Created once the store is chosen: each '@Shared(.appStorage(…))' reads the default
//     store when it is created.
let counter = Counter()
if let error = counter.loadError {
  terminal.warn("warning: \(error)")
}
if storeProblem == nil { counter.recordLaunch() }

switch arguments.command {
case .show:
  break
case .increment(let amount):
  do {
    try counter.increment(by: amount)
  } catch {
    terminal.fail("\(error)")
  }
case .reset:
  counter.reset()
}

// NB: Saved before anything is shown: a count that was not saved is not shown as if it was.
if storeProblem == nil {
  do {
    try await counter.save()
  } catch {
    storeProblem = FileProblem.reason(for: error, at: storeFile)
  }
}

if let storeProblem {
  let place = "\(storeFile.path): \(storeProblem)"
  // Showing the count changes nothing the user asked for: only this launch goes uncounted.
  guard arguments.command == .show else { terminal.fail("The count was not saved to \(place).") }
  terminal.say("Count: \(counter.count)")
  terminal.warn("warning: This launch was not counted: it cannot be saved to \(place).")
  terminal.exit(.success)
}
terminal.say("Count: \(counter.count)")
if arguments.command == .show {
  let times = counter.launchCount == 1 ? "time" : "times"
  terminal.say("Launched \(counter.launchCount) \(times)")
}
