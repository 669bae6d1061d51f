// A second process for the PostgreSQL tests, on a real server. Each command takes the
// server's connection string and the table, and exits 0 once its work is committed.
//
//   set <connection> <table> <key> <n>                  sets an integer key to n
//   set-and-exit <connection> <table> <key> <a> <b>     sets it to a, then to b while the
//                                                       throttle holds it back, and exits
//   increment <connection> <table> <key> <threads> <n>  each of <threads> threads adds 1, <n>
//                                                       times, in coordinated transactions
//   shared-increment <connection> <table> <key> <threads> <n>
//                                                       the same through '$count.withLock' on
//                                                       a coordinated key
//   await <connection> <table> <key> <n>                waits until the key holds n (played
//                                                       back), then prints it
//   three-keys <connection> <table> <i> <n> <listening>
//                                                       with statements through <connection>
//                                                       (a pooler) and listening through
//                                                       <listening>: sets 'p-<i>' and 'last'
//                                                       to i, adds 1 to the coordinated
//                                                       'total', and waits until it holds n

import Foundation
import SharingCore
import SharingDependencies
import SharingPostgres
import TestSupport

exitWhenTheParentExits()

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("PostgresProbe: \(message)\n".utf8))
  exit(1)
}

guard arguments.count >= 4 else { fail("usage: <command> <connection> <table> <key> …") }
// NB: Writes are throttled as by default only where the command is about throttling. Many
//     processes on a loaded machine may wait long for the server: the timeout is generous.
let database = PostgresDatabase.server(
  PostgresDatabase.Configuration(
    arguments[1],
    listeningConnectionString: arguments[0] == "three-keys" ? arguments.last : nil,
    table: arguments[2],
    throttle: arguments[0] == "set-and-exit" ? .seconds(1) : .zero,
    timeout: .seconds(20)
  )
)
prepareDependencies { $0.defaultPostgresDatabase = database }
let key = arguments[3]

switch (arguments[0], arguments.count) {
case ("set", 5):
  @Shared(.postgres(key)) var value = 0
  $value.withLock { $0 = Int(arguments[4]) ?? 0 }
  await database.flushPendingWrites()
  if let error = $value.saveError { fail("\(error)") }

case ("set-and-exit", 6):
  @Shared(.postgres(key)) var value = 0
  $value.withLock { $0 = Int(arguments[4]) ?? 0 }
  $value.withLock { $0 = Int(arguments[5]) ?? 0 }

case ("increment", 6):
  let coordinated: CoordinatedPostgresKey<Int> = .postgres(key, .coordinated)
  let (threads, count) = (Int(arguments[4]) ?? 0, Int(arguments[5]) ?? 0)
  let failures = Locked<[String]>([])
  DispatchQueue.concurrentPerform(iterations: threads) { _ in
    var value = 0
    for _ in 0..<count {
      do {
        try coordinated.withTransaction(&value) { $0 += 1 }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
  }
  if let failure = failures.withLock(\.first) { fail(failure) }

case ("shared-increment", 6):
  let count = Shared(wrappedValue: 0, .postgres(key, .coordinated))
  let (threads, increments) = (Int(arguments[4]) ?? 0, Int(arguments[5]) ?? 0)
  DispatchQueue.concurrentPerform(iterations: threads) { _ in
    for _ in 0..<increments { count.withLock { $0 += 1 } }
  }
  await database.flushPendingWrites()
  if let error = count.saveError { fail("\(error)") }

case ("await", 5):
  @SharedReader(.postgres(key)) var value = 0
  let target = Int(arguments[4]) ?? 0
  let deadline = Date.now.addingTimeInterval(60)
  while value != target {
    guard Date.now < deadline else { fail("timed out waiting for \(target), holding \(value)") }
    usleep(1_000)
  }
  print(value)

case ("three-keys", 6):
  let (index, processes) = (Int(arguments[3]) ?? 0, Int(arguments[4]) ?? 0)
  @Shared(.postgres("p-\(index)")) var own = 0
  @Shared(.postgres("last")) var last = 0
  @Shared(.postgres("total", .coordinated)) var total = 0
  // NB: A change made before its value loaded would lose to a row another process wrote.
  let loadDeadline = Date.now.addingTimeInterval(120)
  while $own.isLoading || $last.isLoading {
    guard Date.now < loadDeadline else { fail("timed out loading") }
    usleep(10_000)
  }
  $own.withLock { $0 = index }
  $last.withLock { $0 = index }
  $total.withLock { $0 += 1 }
  if let error = $total.saveError { fail("total: \(error)") }
  await database.flushPendingWrites()
  for (name, error) in [("own", $own.saveError), ("last", $last.saveError)] {
    if let error { fail("\(name): \(error)") }
  }
  let deadline = Date.now.addingTimeInterval(120)
  while total != processes {
    guard Date.now < deadline else { fail("timed out waiting for \(processes), holding \(total)") }
    usleep(10_000)
  }
  for (name, error) in [
    ("own", $own.loadError), ("last", $last.loadError), ("total", $total.loadError),
  ] {
    if let error { fail("\(name): \(error)") }
  }

default:
  fail("unknown command \(arguments.joined(separator: " "))")
}
