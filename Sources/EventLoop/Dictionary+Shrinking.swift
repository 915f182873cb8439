extension Dictionary {
    /// Removes `key`, and gives the table's memory back once it is mostly empty: a dictionary
    /// never shrinks by itself, so a server's table of connections would otherwise stay at
    /// its peak size after the connections are gone.
    @inlinable
    public mutating func removeValueAndShrink(forKey key: Key) {
        removeValue(forKey: key)
        guard capacity > 256, count < capacity / 8 else { return }
        var smaller = Dictionary(minimumCapacity: count * 2)
        for (key, value) in self { smaller[key] = value }
        self = smaller
    }
}
