import Dispatch
import Foundation
import PostgresTestSupport
import SharingDependencies
import Testing

@testable import SharingPostgres

/// A process's statement connections: never more than the limit, each lent to one borrower at
/// a time, a waiter given the first one back, and a failed connect failing fast without
/// keeping its place.
struct ConnectionPoolTests {
  @Test func borrowersBeyondTheLimitWaitAndGetAConnectionGivenBack() async throws {
    // The third borrower waits, however loaded the machine, until the test releases the others.
    let pool = try await clusterPool(limit: 2, timeout: .seconds(600))
    let borrowing = Borrowing()
    let release = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    // Threads of their own: a borrower blocks its thread, which Dispatch's pool may lack.
    for _ in 0..<3 {
      done.enter()
      Thread.detachNewThread {
        borrowing.asked()
        try? pool.withConnection { connection in
          borrowing.began(connection)
          release.wait()
          borrowing.ended()
        }
        done.leave()
      }
    }
    await eventually("two borrowers holding a connection, the third asking") {
      borrowing.counts.inside == 2 && borrowing.counts.asking == 3
    }
    (0..<3).forEach { _ in release.signal() }
    await withCheckedContinuation { continuation in
      done.notify(queue: .global()) { continuation.resume() }
    }
    let counts = borrowing.counts
    #expect(counts.mostInside == 2)
    #expect(counts.borrowed == 3)
    #expect(counts.connections == 2)
  }

  @Test func aBorrowerAtTheLimitGivesUpAfterTheTimeout() async throws {
    let pool = try await clusterPool(limit: 1, timeout: .milliseconds(200))
    let borrowing = Borrowing()
    let release = DispatchSemaphore(value: 0)
    let holder = DispatchGroup()
    holder.enter()
    Thread.detachNewThread {
      try? pool.withConnection { connection in
        borrowing.began(connection)
        release.wait()
      }
      holder.leave()
    }
    await eventually("the one connection lent") { borrowing.counts.inside == 1 }
    #expect {
      try pool.withConnection { _ in }
    } throws: { error in
      (error as? PostgresError)?.message.contains("waiting for one of the 1 connections") == true
    }
    release.signal()
    await withCheckedContinuation { continuation in
      holder.notify(queue: .global()) { continuation.resume() }
    }
    try pool.withConnection { borrowing.began($0) }
    #expect(borrowing.counts.connections == 1)
  }

  @Test func aFailedConnectFailsTheNextBorrowersAtOnceAndGivesItsPlaceBack() {
    let pool = ConnectionPool(
      connectionString: "host=127.0.0.1 port=1 user=sharing dbname=postgres",
      limit: 1,
      timeout: .seconds(5)
    )
    let first = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
    // Within the timeout, the same error at once: no new attempt to connect.
    #expect {
      try pool.withConnection { _ in }
    } throws: { error in
      (error as? PostgresError) == first
    }
    // Once the server is said to answer, the one place is free: connecting is tried again,
    // rather than waiting for a place that a failed borrower kept.
    pool.serverAnswered()
    #expect {
      try pool.withConnection { _ in }
    } throws: { error in
      (error as? PostgresError).map { !$0.message.contains("waiting for one of") } == true
    }
  }
}

/// A pool of connections to the tests' shared cluster.
private func clusterPool(limit: Int, timeout: Duration) async throws -> ConnectionPool {
  let cluster = try await PostgresCluster.shared()
  return ConnectionPool(connectionString: cluster.connectionString, limit: limit, timeout: timeout)
}

/// What the borrowers of a pool saw: how many held a connection at once, and which.
private final class Borrowing: Sendable {
  struct Counts {
    var asking = 0
    var inside = 0
    var mostInside = 0
    var borrowed = 0
    var connectionIDs: Set<ObjectIdentifier> = []
    var connections: Int { connectionIDs.count }
  }

  private let state = Locked(Counts())

  var counts: Counts { state.withLock { $0 } }

  func asked() {
    state.withLock { $0.asking += 1 }
  }

  func began(_ connection: Connection) {
    state.withLock {
      $0.inside += 1
      $0.mostInside = max($0.mostInside, $0.inside)
      $0.borrowed += 1
      $0.connectionIDs.insert(ObjectIdentifier(connection))
    }
  }

  func ended() {
    state.withLock { $0.inside -= 1 }
  }
}
