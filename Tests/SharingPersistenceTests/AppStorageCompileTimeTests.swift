import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Pins every `appStorage` spelling of swift-sharing 2.x that this package has, and the
/// storage format each one gets.
@Suite struct AppStorageCompileTimeTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func everyValueTypeHasItsSpelling() {
    @Shared(.appStorage("bool")) var bool = false
    @Shared(.appStorage("int")) var int = 0
    @Shared(.appStorage("double")) var double = 0.0
    @Shared(.appStorage("string")) var string = ""
    @Shared(.appStorage("strings")) var strings: [String] = []
    @Shared(.appStorage("url")) var url = URL(string: "https://example.com")!
    @Shared(.appStorage("data")) var data = Data()
    @Shared(.appStorage("date")) var date = Date(timeIntervalSince1970: 0)
    @Shared(.appStorage("priority")) var priority = Priority.low
    @Shared(.appStorage("theme")) var theme = Theme.light
    @Shared(.appStorage("layout")) var layout = Layout(columns: 1, title: "")
    #expect(store.object(forKey: "bool") is Bool)
    #expect(store.object(forKey: "int") is Int)
    #expect(store.object(forKey: "double") is Double)
    #expect(store.object(forKey: "string") is String)
    #expect(store.stringArray(forKey: "strings") == [])
    #expect(store.url(forKey: "url") == URL(string: "https://example.com"))
    #expect(store.object(forKey: "data") is Data)
    #expect(store.object(forKey: "date") is Date)
    #expect(store.object(forKey: "priority") is Int)
    #expect(store.object(forKey: "theme") is String)
    #expect(store.object(forKey: "layout") is Data)
    _ = (bool, int, double, string, strings, url, data, date, priority, theme, layout)
  }

  @Test func optionalsNeedNoDefault() {
    @Shared(.appStorage("bool")) var bool: Bool?
    @Shared(.appStorage("int")) var int: Int?
    @Shared(.appStorage("double")) var double: Double?
    @Shared(.appStorage("string")) var string: String?
    @Shared(.appStorage("strings")) var strings: [String]?
    @Shared(.appStorage("url")) var url: URL?
    @Shared(.appStorage("data")) var data: Data?
    @Shared(.appStorage("date")) var date: Date?
    @Shared(.appStorage("priority")) var priority: Priority?
    @Shared(.appStorage("theme")) var theme: Theme?
    @Shared(.appStorage("layout")) var layout: Layout?
    #expect(store.dictionaryRepresentation().keys.filter { !$0.hasPrefix("NS") }.isEmpty)
    _ = (bool, int, double, string, strings, url, data, date, priority, theme, layout)
  }

  @Test func storeSpellings() {
    let suite = UserDefaults.inMemory
    @Shared(.appStorage("count", store: suite)) var count = 1
    @Shared(.appStorage("other", store: .inMemory)) var other = 2
    @SharedReader(.appStorage("count", store: suite)) var reader = 1
    #expect(suite.integer(forKey: "count") == 1)
    #expect(reader == 1)
    #expect(other == 2)
  }

  @Test func dependencySpellings() {
    withDependencies {
      $0.defaultAppStorage = .inMemory
      $0.appStorageKeyFormatWarningEnabled = false
    } operation: {
      @Shared(.appStorage("a.b")) var dotted = 0
      #expect(dotted == 0)
    }
  }
}
