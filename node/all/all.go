// Package all registers every node type with node.Default. Import it for its
// side effect wherever graphs are checked or run.
package all

import (
	_ "github.com/wetel/wetel/node/action"           // action
	_ "github.com/wetel/wetel/node/approval"         // approval
	_ "github.com/wetel/wetel/node/awaitreply"       // await_reply
	_ "github.com/wetel/wetel/node/condition"        // condition
	_ "github.com/wetel/wetel/node/endsession"       // end_session
	_ "github.com/wetel/wetel/node/generateartifact" // generate_artifact
	_ "github.com/wetel/wetel/node/knowledgesearch"  // knowledge_search
	_ "github.com/wetel/wetel/node/llm"              // llm
	_ "github.com/wetel/wetel/node/pdfexport"        // pdf_export
	_ "github.com/wetel/wetel/node/response"         // response
	_ "github.com/wetel/wetel/node/router"           // router
	_ "github.com/wetel/wetel/node/setvariable"      // set_variable
	_ "github.com/wetel/wetel/node/start"            // start
	_ "github.com/wetel/wetel/node/subagent"         // sub_agent
	_ "github.com/wetel/wetel/node/switchnode"       // switch
	_ "github.com/wetel/wetel/node/tool"             // tool
	_ "github.com/wetel/wetel/node/webhook"          // webhook
)
