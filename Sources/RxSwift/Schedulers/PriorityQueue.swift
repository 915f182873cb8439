/// A binary min-heap ordered by `hasHigherPriority`, with removal by identity.
struct PriorityQueue<Element: AnyObject> {
    private let hasHigherPriority: (Element, Element) -> Bool
    private var elements: [Element] = []

    init(hasHigherPriority: @escaping (Element, Element) -> Bool) {
        self.hasHigherPriority = hasHigherPriority
    }

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    func peek() -> Element? { elements.first }

    mutating func enqueue(_ element: Element) {
        elements.append(element)
        bubbleUp(elements.count - 1)
    }

    mutating func dequeue() -> Element? {
        guard let first = elements.first else { return nil }
        remove(at: 0)
        return first
    }

    mutating func remove(_ element: Element) {
        if let index = elements.firstIndex(where: { $0 === element }) {
            remove(at: index)
        }
    }

    private mutating func remove(at index: Int) {
        let last = elements.count - 1
        if index != last {
            elements.swapAt(index, last)
        }
        elements.removeLast()
        if index < elements.count {
            bubbleUp(index)
            bubbleDown(index)
        }
    }

    private mutating func bubbleUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard hasHigherPriority(elements[index], elements[parent]) else { return }
            elements.swapAt(index, parent)
            index = parent
        }
    }

    private mutating func bubbleDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1, right = left + 1
            var best = index
            if left < elements.count && hasHigherPriority(elements[left], elements[best]) { best = left }
            if right < elements.count && hasHigherPriority(elements[right], elements[best]) { best = right }
            if best == index { return }
            elements.swapAt(index, best)
            index = best
        }
    }
}

extension PriorityQueue: CustomDebugStringConvertible {
    /// The elements in heap order.
    var debugDescription: String {
        elements.map { String(reflecting: $0) }.description
    }
}
