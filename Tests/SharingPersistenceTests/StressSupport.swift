import Foundation
import SharingCore
import SharingDependencies
import Testing

/// A key that behaves like `base`, with the same identity, and counts its live
/// subscriptions: the store's subscription must be cancelled once no shared value uses it.
struct CountingKey<Base: SharedKey>: SharedKey where Base.Value: Sendable {
  let base: Base
  let subscriptions: SubscriptionCounter

  var id: Base.ID { base.id }

  /// The wrapped key's store, if it keeps shared references: a key forwarding an in-memory
  /// key's identity forwards its store too, to share the value that store keeps.
  var _referenceStore: _ReferenceStore? { base._referenceStore }

  func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Base.Value>,
    subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    subscriptions.open()
    let subscription = base.subscribe(context: context, subscriber: subscriber)
    return SharedSubscription { [subscriptions] in
      subscription.cancel()
      subscriptions.close()
    }
  }

  func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

final class SubscriptionCounter: Sendable {
  private let counts = Locked((opened: 0, live: 0))

  func open() {
    counts.withLock {
      $0.opened += 1; $0.live += 1
    }
  }
  func close() { counts.withLock { $0.live -= 1 } }

  var opened: Int { counts.withLock(\.opened) }
  var live: Int { counts.withLock(\.live) }
}
