import Foundation
import Testing

@testable import SharingPersistence

/// Which keys of a property list a write changed, told by the bytes of each value.
@Suite struct PropertyListKeysTests {
  /// A property list as Foundation writes a store's file.
  let written = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>data</key>
    \t<data>
    \tAQID
    \t</data>
    \t<key>dict</key>
    \t<dict>
    \t\t<key>a</key>
    \t\t<array>
    \t\t\t<integer>1</integer>
    \t\t</array>
    \t\t<key>b</key>
    \t\t<dict>
    \t\t\t<key>c</key>
    \t\t\t<string>x&lt;&amp;&gt;y</string>
    \t\t</dict>
    \t</dict>
    \t<key>empty</key>
    \t<array/>
    \t<key>flag</key>
    \t<true/>
    \t<key>k&amp;&lt;&gt;"'</key>
    \t<string>we &amp; they</string>
    </dict>
    </plist>

    """.utf8
  )

  @Test func everyTopLevelKeyIsFound() throws {
    let fingerprints = try #require(PropertyListKeys.fingerprints(of: written))
    #expect(Set(fingerprints.keys) == ["data", "dict", "empty", "flag", #"k&<>"'"#])
  }

  @Test func aChangedValueChangesOnlyItsKeysFingerprint() throws {
    let changed = Data(
      String(decoding: written, as: UTF8.self)
        .replacingOccurrences(of: "<integer>1</integer>", with: "<integer>2</integer>").utf8
    )
    let before = try #require(PropertyListKeys.fingerprints(of: written))
    let after = try #require(PropertyListKeys.fingerprints(of: changed))
    #expect(Set(before.keys.filter { before[$0] != after[$0] }) == ["dict"])
  }

  @Test func anotherFormatTellsNothing() throws {
    let binary = try PropertyListSerialization.data(
      fromPropertyList: ["a": 1],
      format: .binary,
      options: 0
    )
    #expect(PropertyListKeys.fingerprints(of: binary) == nil)
    #expect(PropertyListKeys.fingerprints(of: Data("<plist><dict><key>a".utf8)) == nil)
    #expect(
      PropertyListKeys.fingerprints(
        of: Data("<plist><dict><key>&#65;</key><true/></dict></plist>".utf8)
      ) == nil
    )
  }
}
