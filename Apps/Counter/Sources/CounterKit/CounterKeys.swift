public import SharingCore
public import SharingPersistence

extension SharedReaderKey where Self == AppStorageKey<Int>.Default {
  /// The counter's value, `0` until it is first changed.
  public static var count: Self {
    Self[.appStorage("count"), default: 0]
  }

  /// How many times the program was launched.
  public static var launchCount: Self {
    Self[.appStorage("launchCount"), default: 0]
  }
}
