package llm

import (
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/vocab"
)

// messages are what the model reads: the system prompt, the most recent
// conversation (bounded, whole messages, oldest dropped first), then the
// rendered prompt.
func messages(system string, vars map[string]any, prompt string) []models.Message {
	hist, _ := vars[vocab.FactConversationHistory].([]any)
	first, bytes := len(hist), 0
	for first > 0 && len(hist)-first < MaxHistoryMessages {
		m, _ := hist[first-1].(map[string]any)
		text, _ := m["text"].(string)
		if bytes+len(text) > MaxHistoryBytes {
			break
		}
		bytes += len(text)
		first--
	}
	out := make([]models.Message, 0, len(hist)-first+2)
	if system != "" {
		out = append(out, models.Message{Role: "system", Content: system})
	}
	for _, h := range hist[first:] {
		m, _ := h.(map[string]any)
		role, _ := m["role"].(string)
		text, _ := m["text"].(string)
		if (role != "user" && role != "assistant") || text == "" {
			continue
		}
		out = append(out, models.Message{Role: role, Content: text})
	}
	return append(out, models.Message{Role: "user", Content: prompt})
}
