// A real OpenID provider (the `oidc-provider` package) for the external sign-in tests, run in its own
// Node process because the package is ESM-only. Its interaction pages are small JSON endpoints that
// the test drives over plain HTTP, as a person would with forms:
//   GET  /interaction/:uid          → { uid, prompt }        (prompt: 'login' or 'consent'; a
//                                                             browser asking for HTML gets the forms)
//   POST /interaction/:uid/login    account=<id>            (signs that account in)
//   POST /interaction/:uid/confirm                          (grants the requested scopes)
//   POST /interaction/:uid/abort                            (the person refuses: error=access_denied)
// Configuration (JSON in argv[2]): { port, clients: [...oidc-provider client metadata], accounts:
// { id: { email, email_verified } } }. Prints "READY <issuer>" when it listens.
import http from 'node:http';
import Provider from 'oidc-provider';

const { port, clients, accounts } = JSON.parse(process.argv[2]);
const issuer = `http://localhost:${port}`;

const provider = new Provider(issuer, {
  clients,
  async findAccount(_ctx, id) {
    const account = accounts[id];
    return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  // Clients whose id ends in -pkce must use PKCE (S256), the others may not need it.
  pkce: { required: (_ctx, client) => client.clientId.endsWith('-pkce') },
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['bloom-external-idp-test-cookie-key'] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
});

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendPage(res, uid, prompt) {
  const form = (action, body) => `<form method="post" action="/interaction/${uid}/${action}">${body}</form>`;
  const content =
    prompt === 'login'
      ? form(
          'login',
          '<h1>Test provider</h1><label>Account <input name="account"></label> <button>Sign in</button>',
        ) + form('abort', '<button>Cancel</button>')
      : form('confirm', '<h1>Allow Bloom?</h1><button>Allow</button>');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Test provider</title>${content}`);
}

async function consent(req, res, details) {
  const { prompt, params, session } = details;
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
  if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return sendJson(res, 400, { error: 'interaction mismatch' });
  if (req.method === 'GET' && !action) {
    // A browser (the e2e test) gets forms; the HTTP tests get JSON.
    if (req.headers.accept?.includes('text/html')) return sendPage(res, uid, details.prompt.name);
    return sendJson(res, 200, { uid, prompt: details.prompt.name, client_id: details.params.client_id });
  }
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });
  if (action === 'login') {
    const account = (await readForm(req)).get('account');
    if (!account || !accounts[account]) return sendJson(res, 400, { error: 'unknown account' });
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: account } },
      { mergeWithLastSubmission: false },
    );
  }
  if (action === 'confirm') return consent(req, res, details);
  if (action === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person declined the sign-in' },
      { mergeWithLastSubmission: false },
    );
  }
  return sendJson(res, 404, { error: 'unknown action' });
}

const callback = provider.callback();
const server = http.createServer((req, res) => {
  const match = /^\/interaction\/([^/?]+)(?:\/(login|confirm|abort))?(?:\?.*)?$/.exec(req.url ?? '');
  if (!match) return callback(req, res);
  interaction(req, res, match[1], match[2]).catch((err) => sendJson(res, 500, { error: String(err) }));
});
server.listen(port, 'localhost', () => console.log(`READY ${issuer}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
