import Dispatch
import SharingCore
import SharingDependencies
import Testing

/// Others' changes reaching a value persisted by a ``CoordinatedSharedKey`` while one of the
/// program's transactions ends.
@Suite struct CoordinatedPlaybackTests {
  /// Another process changes the store right after the program's transaction committed, and
  /// its change is delivered before `withLock` has stored the transaction's result: the older
  /// result must not overwrite it.
  @Test func aChangeDeliveredAsATransactionEndsIsNotOverwrittenByItsOlderResult() async {
    let key = RacingKey()
    let count = Shared(wrappedValue: 0, key)
    count.withLock { $0 += 1 }
    await key.deliveryEnded()
    #expect(count.wrappedValue == 5)
  }
}

/// A coordinated key whose every transaction, once committed, is followed by another
/// process's change to 5, delivered from another thread, as a listener would.
private final class RacingKey: CoordinatedSharedKey, Sendable {
  private let state = Locked(State())
  private let delivered = DispatchSemaphore(value: 0)

  private struct State {
    var stored = 0
    var subscriber: SharedSubscriber<Int>?
  }

  var id: ObjectIdentifier { ObjectIdentifier(self) }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resume(returning: state.withLock(\.stored))
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription
  {
    state.withLock { $0.subscriber = subscriber }
    return SharedSubscription { [state] in state.withLock { $0.subscriber = nil } }
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    state.withLock { $0.stored = value }
    continuation.resume()
  }

  func withTransaction(_ value: inout Int, _ body: (inout Int) throws -> Void) throws {
    var changed = state.withLock(\.stored)
    try body(&changed)
    let subscriber = state.withLock { state in
      state.stored = 5
      return state.subscriber
    }
    value = changed
    let delivering = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [delivered] in
      subscriber?.yield(5)
      delivering.signal()
      delivered.signal()
    }
    // Gives the delivery the time to land before the result is stored, which it may do only
    // after the transaction is over.
    _ = delivering.wait(timeout: .now() + .milliseconds(500))
  }

  /// Waits, off the cooperative pool, for the delivery of the last transaction's follower.
  func deliveryEnded() async {
    await withCheckedContinuation { done in
      DispatchQueue.global().async { [delivered] in
        delivered.wait()
        done.resume()
      }
    }
  }
}
