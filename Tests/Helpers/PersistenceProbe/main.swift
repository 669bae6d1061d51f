// A second process for the persistence tests. Each command uses the live dependencies
// (the tests start it with 'SWIFT_DEPENDENCIES_CONTEXT=live') and exits normally, so that
// pending writes are flushed at exit.
//
//   file-increment <path> <count>   increments an integer file <count> times, then exits
//   file-converge <path>            waits for "from parent" in a string file, then writes
//                                   "from child"
//   defaults-set <suite> <key> <n>  sets an integer in a user defaults suite, then exits

import Foundation
import SharingCore
import SharingPersistence

let arguments = Array(CommandLine.arguments.dropFirst())

/// Waits until `condition` holds; exits with status 2 if it does not within 30 seconds.
func wait(for description: String, until condition: () -> Bool) {
  let deadline = Date().addingTimeInterval(30)
  while !condition() {
    guard Date() < deadline else {
      FileHandle.standardError.write(Data("Timed out waiting for \(description)\n".utf8))
      exit(2)
    }
    usleep(5_000)
  }
}

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

default:
  FileHandle.standardError.write(Data("Unknown command: \(arguments)\n".utf8))
  exit(1)
}
