package characterize

import (
	"os"
	"testing"

	"portlab/jit"
)

func TestMain(m *testing.M) {
	jit.MaybeRunWorker()
	os.Exit(m.Run())
}
