package main

import "fmt"

// Counter counts greetings.
type Counter struct {
	n int
}

// Inc adds one and returns the new count.
func (c *Counter) Inc() int {
	c.n++
	return c.n
}

func main() {
	c := &Counter{}
	fmt.Println("hello", c.Inc())
}
