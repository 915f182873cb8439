/// Key of an item in a `Bag`.
@usableFromInline
typealias BagKey = UInt64

/// An insertion-ordered collection with removal by key. The first item lives inline, so a
/// bag with one item needs no allocation (the common case: a subject with one observer).
@usableFromInline
struct Bag<Item> {
    @usableFromInline
    var nextKey: BagKey = 0
    @usableFromInline
    var key0: BagKey = 0
    @usableFromInline
    var item0: Item?
    @usableFromInline
    var rest: ContiguousArray<(key: BagKey, item: Item)> = []

    @inlinable
    init() {}

    @inlinable
    var count: Int { (item0 == nil ? 0 : 1) + rest.count }

    @inlinable
    var isEmpty: Bool { item0 == nil && rest.isEmpty }

    @inlinable
    mutating func insert(_ item: Item) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        if item0 == nil && rest.isEmpty {
            key0 = key
            item0 = item
        } else {
            rest.append((key: key, item: item))
        }
        return key
    }

    @inlinable
    mutating func removeKey(_ key: BagKey) -> Item? {
        if item0 != nil && key0 == key {
            let item = item0
            item0 = nil
            return item
        }
        if let index = rest.firstIndex(where: { $0.key == key }) {
            return rest.remove(at: index).item
        }
        return nil
    }

    @inlinable
    mutating func removeAll() {
        item0 = nil
        rest.removeAll()
    }

    @inlinable
    func forEach(_ body: (Item) -> Void) {
        if let item0 { body(item0) }
        for entry in rest { body(entry.item) }
    }
}

/// Sends `event` to every observer of `observers`.
@inlinable
func dispatch<Element>(_ observers: Bag<(Event<Element>) -> Void>, _ event: Event<Element>) {
    if let first = observers.item0 {
        first(event)
    }
    for entry in observers.rest {
        entry.item(event)
    }
}
