/// Events earliest first by (time, sequence): the engine's one heap (``MinHeap``) over events.
package typealias EventHeap = MinHeap<Event>
