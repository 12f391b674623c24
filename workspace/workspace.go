// Package workspace reads the workspace file (PLATFORM §12): custom actions,
// MCP connectors, agents, workflows, knowledge bases and model providers declared in one YAML
// or JSON document, with ${NAME} read from the environment.
package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wetel/wetel/internal/jsonpos"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/secrets"
)

// MaxFileBytes bounds a workspace file.
const MaxFileBytes = 1 << 20

// File is a declared workspace.
type File struct {
	CustomActions  []CustomAction  `yaml:"customActions" json:"customActions"`
	McpConnectors  []McpConnector  `yaml:"mcpConnectors" json:"mcpConnectors"`
	Agents         []Agent         `yaml:"agents" json:"agents"`
	Workflows      []Workflow      `yaml:"workflows" json:"workflows"`
	KnowledgeBases []KnowledgeBase `yaml:"knowledgeBases" json:"knowledgeBases"`
	// ModelProviders, in fallback order, and the model settings (see
	// package models): the catalog is the union of the providers' models,
	// narrowed by AllowedModels.
	ModelProviders []models.Provider `yaml:"modelProviders" json:"modelProviders"`
	DefaultModel   string            `yaml:"defaultModel" json:"defaultModel"`
	EmbeddingModel string            `yaml:"embeddingModel" json:"embeddingModel"`
	AllowedModels  []string          `yaml:"allowedModels" json:"allowedModels"`
	// ModelPrices are the catalog's prices per million tokens, and the
	// daily budgets bound the workspace's model calls (0: none).
	ModelPrices      map[string]models.Price `yaml:"modelPrices" json:"modelPrices"`
	DailyTokenBudget int64                   `yaml:"dailyTokenBudget" json:"dailyTokenBudget"`
	DailySpendBudget float64                 `yaml:"dailySpendBudget" json:"dailySpendBudget"`
}

// Models returns the file's model settings.
func (ws *File) Models() models.Config {
	return models.Config{Providers: ws.ModelProviders, DefaultModel: ws.DefaultModel, EmbeddingModel: ws.EmbeddingModel, AllowedModels: ws.AllowedModels,
		Prices: ws.ModelPrices, DailyTokenBudget: ws.DailyTokenBudget, DailySpendBudget: ws.DailySpendBudget}
}

// CustomAction is a registered REST endpoint an action node calls by id.
type CustomAction struct {
	ID        int               `yaml:"id" json:"id"`
	Name      string            `yaml:"name" json:"name"`
	Method    string            `yaml:"method" json:"method"`
	URL       string            `yaml:"url" json:"url"`
	Headers   map[string]string `yaml:"headers" json:"headers"`
	TimeoutMs int               `yaml:"timeoutMs" json:"timeoutMs"`
}

// McpConnector is a registered MCP server a tool node calls by id.
type McpConnector struct {
	ID          int               `yaml:"id" json:"id"`
	Name        string            `yaml:"name" json:"name"`
	Transport   string            `yaml:"transport" json:"transport"`
	Command     []string          `yaml:"command" json:"command"`
	URL         string            `yaml:"url" json:"url"`
	Credentials map[string]string `yaml:"credentials" json:"credentials"`
}

// Agent pairs a persona with a workflow by name.
type Agent struct {
	Name     string `yaml:"name" json:"name"`
	Persona  string `yaml:"persona" json:"persona"`
	Workflow string `yaml:"workflow" json:"workflow"`
	// DefaultModel is the agent's model, from the workspace's catalog;
	// empty leaves the workspace's defaultModel.
	DefaultModel string `yaml:"defaultModel" json:"defaultModel"`
}

// Workflow names a graph file.
type Workflow struct {
	Name    string `yaml:"name" json:"name"`
	File    string `yaml:"file" json:"file"`
	Publish bool   `yaml:"publish" json:"publish"`
}

// KnowledgeBase names documents to load.
type KnowledgeBase struct {
	Name      string   `yaml:"name" json:"name"`
	Documents []string `yaml:"documents" json:"documents"`
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Load reads and checks a workspace file. lookup resolves ${NAME}; pass
// os.LookupEnv. An unset name is an error, so a secret is never sent empty.
func Load(path string, lookup func(string) (string, bool)) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("workspace: %s is larger than %d bytes", path, MaxFileBytes)
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		// YAML would take most JSON mistakes (a trailing comma) silently
		// and report the rest by line only.
		if err := jsonpos.Check(data); err != nil {
			return nil, fmt.Errorf("workspace: %s is not valid JSON: %w", path, err)
		}
	}
	return Parse(data, lookup)
}

// Parse decodes a workspace document strictly (unknown fields are refused).
func Parse(data []byte, lookup func(string) (string, bool)) (*File, error) {
	var missing []string
	expanded := envRef.ReplaceAllFunc(data, func(m []byte) []byte {
		name := string(m[2 : len(m)-1])
		v, ok := lookup(name)
		if !ok {
			missing = append(missing, name)
		}
		return []byte(v)
	})
	if len(missing) > 0 {
		return nil, fmt.Errorf("workspace: environment variable %s is not set", strings.Join(missing, ", "))
	}
	var ws File
	dec := yaml.NewDecoder(bytes.NewReader(expanded))
	dec.KnownFields(true)
	if err := dec.Decode(&ws); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if err := ws.check(); err != nil {
		return nil, err
	}
	return &ws, nil
}

func (ws *File) check() error {
	var errs []error
	seen := map[int]bool{}
	for i, a := range ws.CustomActions {
		at := fmt.Sprintf("customActions[%d]", i)
		switch {
		case a.ID < 1:
			errs = append(errs, fmt.Errorf("%s.id must be a positive integer", at))
		case seen[a.ID]:
			errs = append(errs, fmt.Errorf("%s.id %d is used twice", at, a.ID))
		}
		seen[a.ID] = true
		if u, err := url.Parse(a.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s.url must be an absolute http or https URL", at))
		}
		errs = appendURLCredential(errs, at, a.URL)
		switch strings.ToUpper(a.Method) {
		case "", "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			errs = append(errs, fmt.Errorf("%s.method must be GET, POST, PUT, PATCH or DELETE", at))
		}
		if a.TimeoutMs < 0 || a.TimeoutMs > 30000 {
			errs = append(errs, fmt.Errorf("%s.timeoutMs must be from 1 to 30000", at))
		}
	}
	seenConn := map[int]bool{}
	for i, c := range ws.McpConnectors {
		at := fmt.Sprintf("mcpConnectors[%d]", i)
		switch {
		case c.ID < 1:
			errs = append(errs, fmt.Errorf("%s.id must be a positive integer", at))
		case seenConn[c.ID]:
			errs = append(errs, fmt.Errorf("%s.id %d is used twice", at, c.ID))
		}
		seenConn[c.ID] = true
		switch c.Transport {
		case "stdio":
			if len(c.Command) == 0 {
				errs = append(errs, fmt.Errorf("%s.command is required for transport stdio", at))
			}
		case "http":
			if u, err := url.Parse(c.URL); err != nil || u.Host == "" {
				errs = append(errs, fmt.Errorf("%s.url must be an absolute URL for transport http", at))
			}
			errs = appendURLCredential(errs, at, c.URL)
		default:
			errs = append(errs, fmt.Errorf("%s.transport must be stdio or http", at))
		}
	}
	if len(ws.ModelProviders) > 0 {
		// Without providers of its own, the file's model settings apply to
		// the providers the server already has, which it checks then.
		if err := ws.Models().Check("modelProviders"); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("workspace: %w", errors.Join(errs...))
	}
	return nil
}

// appendURLCredential refuses a credential in a URL, as the server does at
// save: a URL is stored and shown in clear, headers are sealed and masked.
func appendURLCredential(errs []error, at, raw string) []error {
	if what := secrets.URLCredential(raw); what != "" {
		errs = append(errs, fmt.Errorf("%s.url must not hold credentials (it has %s): send them as a header (headers: {X-Api-Key: ${KEY}})", at, what))
	}
	return errs
}

// Action returns the custom action with the id.
func (ws *File) Action(id int) (CustomAction, bool) {
	for _, a := range ws.CustomActions {
		if a.ID == id {
			return a, true
		}
	}
	return CustomAction{}, false
}
