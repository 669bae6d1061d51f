// counter: a counter that survives between runs, and how many times it was launched, both
// kept in user defaults with '@Shared(.appStorage(…))'. Counters started at once take turns
// (CounterLock), so that none loses another's count.
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

// NB: Taken before the store is first read, and held until the process exits: counters
//     started at once run one after another, each from the last one's values. A lock that
//     cannot be taken (a folder that cannot be created) leaves the run unlocked, and the
//     save below says why the store cannot be written, if it cannot.
var lockError: (any Error)?
do {
  try CounterLock.holdUntilExit(
    beside: arguments.storePath.map(CounterStore.file(forPath:)) ?? CounterStore.defaultFile()
  )
} catch {
  lockError = error
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
counter.recordLaunch()

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
do {
  try await counter.save()
} catch {
  terminal.fail("The count was not saved. \(error)")
}

if let lockError {
  terminal.warn("warning: counted without the lock against other counters: \(lockError)")
}
terminal.say("Count: \(counter.count)")
if arguments.command == .show {
  let times = counter.launchCount == 1 ? "time" : "times"
  terminal.say("Launched \(counter.launchCount) \(times)")
}
