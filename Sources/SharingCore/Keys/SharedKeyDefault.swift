extension SharedReaderKey {
  /// A key paired with a default value, so that shared values can be created from the key
  /// alone.
  ///
  /// ```swift
  /// extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  ///   static var isHapticsEnabled: Self {
  ///     Self[.appStorage("isHapticsEnabled"), default: true]
  ///   }
  /// }
  ///
  /// @Shared(.isHapticsEnabled) var isHapticsEnabled
  /// ```
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key paired with a default value. Spelled ``SharedReaderKey/Default`` at use sites.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// Pairs a key with the value used when its store has none.
  ///
  /// - Parameters:
  ///   - key: The key to read and write.
  ///   - value: The default value, evaluated only when it is needed.
  public static subscript(
    _ key: Base,
    default value: @escaping @autoclosure @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The default value, used when the store has none.
  ///
  /// ```swift
  /// let key: AppStorageKey<Bool>.Default = .isHapticsEnabled
  /// key.initialValue  // true
  /// ```
  public var initialValue: Base.Value { defaultValue() }

  /// The identity of the underlying key.
  public var id: Base.ID { base.id }

  /// Loads through the underlying key.
  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  /// Subscribes through the underlying key.
  public func subscribe(
    context: LoadContext<Base.Value>,
    subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  /// Saves through the underlying key.
  public func save(
    _ value: Base.Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    base.save(value, context: context, continuation: continuation)
  }
}

extension _SharedKeyDefault: CustomStringConvertible {
  /// The underlying key's description.
  public var description: String { String(reflecting: base) }
}
