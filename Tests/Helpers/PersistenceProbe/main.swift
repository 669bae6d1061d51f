// A second process for the persistence tests. Each command uses the live dependencies
// (the tests start it with 'SWIFT_DEPENDENCIES_CONTEXT=live') and exits normally unless
// it says otherwise, so that pending writes are flushed at exit.
//
//   file-increment <path> <count>   increments an integer file <count> times, then exits
//   file-converge <path>            waits for "from parent" in a string file, then writes
//                                   "from child"
//   defaults-set <suite> <key> <n>  sets an integer in a user defaults suite, then exits
//
// Crash safety (CrashModes.swift): file-write-loop, file-pending.
// Fuzzing the decode path (Fuzzing.swift): fuzz-decode.
// A file its user cannot read (UnreadableModes.swift): file-unreadable.
// Memory over many files (RecordModes.swift): file-records.
// Two processes (ConvergenceModes.swift): file-pingpong, defaults-pingpong, file-burst,
// file-threads, defaults-burst.
// Measuring (IdleModes.swift): defaults-idle.
// Coordinated changes from several processes (CoordinatedModes.swift): coordinated-increment,
// coordinated-tally.

import Foundation
import SharingCore
import SharingPersistence
import TestSupport

exitWhenTheParentExits()

let arguments = Array(CommandLine.arguments.dropFirst())

switch (arguments.first, arguments.count) {
case ("file-increment", 3):
  @Shared(.fileStorage(URL(fileURLWithPath: arguments[1]))) var count = 0
  for _ in 0..<(Int(arguments[2]) ?? 0) {
    $count.withLock { $0 += 1 }
  }

case ("file-converge", 2):
  @Shared(.fileStorage(URL(fileURLWithPath: arguments[1]))) var message = ""
  wait(for: "the parent's write") { message == "from parent" }
  $message.withLock { $0 = "from child" }

case ("defaults-set", 4):
  guard let store = UserDefaults(suiteName: arguments[1]) else { exit(1) }
  @Shared(.appStorage(arguments[2], store: store)) var value = 0
  $value.withLock { $0 = Int(arguments[3]) ?? 0 }

case ("file-write-loop", 3), ("file-write-loop", 4):
  await writeLoop(
    path: arguments[1],
    acks: arguments[2],
    count: arguments.dropFirst(3).first.flatMap { Int($0) }
  )

case ("file-pending", 4):
  await pendingWrite(path: arguments[1], ready: arguments[2], signals: arguments[3])

case ("file-pingpong", 3):
  filePingPong(path: arguments[1], rounds: Int(arguments[2]) ?? 0)

case ("defaults-idle", 4):
  defaultsIdle(
    suite: arguments[1],
    megabytes: Int(arguments[2]) ?? 0,
    seconds: Int(arguments[3]) ?? 0
  )

case ("defaults-pingpong", 4):
  await defaultsPingPong(suite: arguments[1], key: arguments[2], rounds: Int(arguments[3]) ?? 0)

case ("file-burst", 7):
  await fileBurst(
    path: arguments[1],
    first: Int(arguments[2]) ?? 0,
    count: Int(arguments[3]) ?? 0,
    done: arguments[4],
    stop: arguments[5],
    report: arguments[6]
  )

case ("file-threads", 6):
  await fileThreads(
    path: arguments[1],
    threads: Int(arguments[2]) ?? 1,
    milliseconds: Int(arguments[3]) ?? 0,
    done: arguments[4],
    othersDone: arguments[5]
  )

case ("defaults-burst", 8):
  await defaultsBurst(
    suite: arguments[1],
    first: Int(arguments[2]) ?? 0,
    count: Int(arguments[3]) ?? 0,
    otherFirst: Int(arguments[4]) ?? 0,
    done: arguments[5],
    stop: arguments[6],
    report: arguments[7]
  )

case ("fuzz-decode", 4):
  await fuzzDecode(
    seed: UInt64(arguments[1]) ?? 0,
    iterations: Int(arguments[2]) ?? 0,
    directory: arguments[3]
  )

case ("file-records", 2):
  fileRecords(count: Int(arguments[1]) ?? 0)

case ("file-unreadable", 2):
  await unreadableFile(path: arguments[1])

case ("coordinated-increment", 5):
  coordinatedIncrement(
    path: arguments[1],
    threads: Int(arguments[2]) ?? 0,
    increments: Int(arguments[3]) ?? 0,
    total: Int(arguments[4]) ?? 0
  )

case ("coordinated-tally", 6):
  coordinatedTally(
    path: arguments[1],
    id: arguments[2],
    threads: Int(arguments[3]) ?? 0,
    increments: Int(arguments[4]) ?? 0,
    started: arguments[5]
  )

default:
  fail("Unknown command: \(arguments)")
}
