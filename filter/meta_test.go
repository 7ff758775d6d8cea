package filter

import (
	"fmt"
	"strings"
	"testing"
)

// A page naming robot numbers without end holds at most MaxRobotNames of
// them, says so once, and the robots named before the bound still count.
func TestRobotNamesAreBounded(t *testing.T) {
	var warnings []Warning
	c, err := NewCore(Options{Agent: "Foo Bot/1.0"}, Outputs{Warning: func(w Warning) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	c.Meta([]byte("RobotExclusion.RobotName1"), []byte("Foo Bot"), StartPos, true)
	for i := 2; i < MaxRobotNames+500; i++ {
		c.Meta([]byte(fmt.Sprintf("RobotExclusion.RobotName%d", i)), []byte("Other Bot"), StartPos, true)
	}
	if len(c.robotNames) != MaxRobotNames {
		t.Errorf("%d robot numbers held, want %d", len(c.robotNames), MaxRobotNames)
	}
	var full int
	for _, w := range warnings {
		if strings.Contains(w.Message, "robot numbers named") {
			full++
		}
	}
	if full != 1 {
		t.Errorf("%d warnings about the bound, want 1 (%d warnings in all)", full, len(warnings))
	}
	if is, named := c.agentIsRobot(1); !is || !named {
		t.Errorf("robot 1 (named before the bound): is %v, named %v; want the agent, named", is, named)
	}
	// A number named again is renamed, bound or not.
	c.Meta([]byte("RobotExclusion.RobotName2"), []byte("Foo Bot"), StartPos, true)
	if is, _ := c.agentIsRobot(2); !is {
		t.Error("robot 2 renamed after the bound: not the agent")
	}
}
