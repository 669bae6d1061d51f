/// A key that does everything the key it wraps does: ``SharedReaderKey/Default`` is one.
///
/// Every capability of a key is a requirement of the key protocols, and this protocol's
/// extensions forward each of them to ``base``: its identity, loading, subscribing, saving,
/// reading the value when it is written, running changes as transactions, and keeping shared
/// references in its store. A key that
/// wraps another and adopts this protocol loses none of them, whichever it wraps.
///
/// ```swift
/// struct LoggedKey<Base: SharedKey>: SharedKey, _ForwardingKey {
///   let base: Base
///   func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
///     print("saving \\(value)")
///     base.save(value, context: context, continuation: continuation)
///   }
/// }
/// ```
public protocol _ForwardingKey<Base>: SharedReaderKey
where Value == Base.Value, ID == Base.ID {
  /// The type of the wrapped key.
  associatedtype Base: SharedReaderKey

  /// The wrapped key.
  var base: Base { get }
}

extension _ForwardingKey {
  /// The identity of the wrapped key.
  public var id: ID { base.id }

  /// Loads through the wrapped key.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  /// Subscribes through the wrapped key.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  /// The wrapped key's store, if it keeps shared references.
  public var _referenceStore: _ReferenceStore? { base._referenceStore }
}

extension _ForwardingKey where Self: SharedKey, Base: SharedKey {
  /// Saves through the wrapped key.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }

  /// Saves through the wrapped key, which reads the value when it writes it if it can.
  public func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    base.save(reading: value, context: context, continuation: continuation)
  }

  /// The wrapped key's transactions, if its changes are transactions.
  public var _coordinatedKey: (any CoordinatedSharedKey<Value>)? { base._coordinatedKey }
}

extension _ForwardingKey where Self: CoordinatedSharedKey, Base: CoordinatedSharedKey {
  /// The wrapped key's transactions.
  public var _coordinatedKey: (any CoordinatedSharedKey<Value>)? { base._coordinatedKey }

  /// Runs the change as a transaction of the wrapped key's store.
  public func withTransaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws {
    try base.withTransaction(&value, body)
  }
}
