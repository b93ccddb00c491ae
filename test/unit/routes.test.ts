import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { languageForPath } from '../../src/core/parse/languages';
import { extractRoutes } from '../../src/core/routes/extract';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT } from '../helpers/workspace';
import type { FileFacts } from '../../src/core/routes/types';

const show = (file: string, text: string, facts?: FileFacts) => extractRoutes(file, text, facts).map((r) => `${r.framework} ${r.method} ${r.path} ${r.handler} @${r.line}`);

test('FastAPI and Flask decorators, commented-out routes ignored', () => {
  assert.deepEqual(show('api.py', `from fastapi import FastAPI
app = FastAPI()

@app.get("/items/{item_id}")
async def read_item(item_id: int):
    ...

@app.api_route("/any", methods=["GET", "POST"])
def any_route(): ...
# @app.delete("/items/{item_id}")
@app.websocket("/ws")
async def ws(socket): ...
`), ['fastapi GET /items/{item_id} read_item @4', 'fastapi GET,POST /any any_route @8', 'fastapi WS /ws ws @11']);
  assert.deepEqual(show('views.py', `from flask import Flask, Blueprint
bp = Blueprint("x", __name__)

@bp.route("/login", methods=["POST"])
@login_required
def login():
    pass

@bp.route('/')
def index(): pass
`), ['flask POST /login login @4', 'flask GET / index @9']);
});

test('GraphQL in Python: Strawberry and Ariadne', () => {
  assert.deepEqual(show('schema.py', `import strawberry

@strawberry.type
class Query:
    @strawberry.field
    def user(self, id: str) -> str: ...

    @strawberry.mutation
    def rename(self) -> str: ...
`), ['strawberry QUERY user user @5', 'strawberry MUTATION rename rename @8']);
  assert.deepEqual(show('resolvers.py', `from ariadne import QueryType, MutationType
query = QueryType()
mutation = MutationType()

@query.field("hello")
def resolve_hello(*_): ...

@mutation.field("login")
def resolve_login(*_): ...
`), ['ariadne QUERY hello resolve_hello @5', 'ariadne MUTATION login resolve_login @8']);
});

test('Express-style routers, NestJS controllers and TypeGraphQL resolvers', () => {
  assert.deepEqual(show('server.js', `const app = express();
const router = express.Router();
app.get('/health', (req, res) => res.send('ok'));
router.post("/users/:id", auth, updateUser);
app.use('/api', router);
// app.get('/old', legacy);
`), ['express GET /health <anonymous> @3', 'express POST /users/:id updateUser @4']);
  assert.deepEqual(show('cats.controller.ts', `@Controller('cats')
export class CatsController {
  @Get(':id')
  findOne(@Param('id') id: string) {}

  @Delete()
  async remove() {}
}
`), ['nestjs GET /cats/:id findOne @3', 'nestjs DELETE /cats remove @6']);
  assert.deepEqual(show('recipe.resolver.ts', `@Resolver(Recipe)
class RecipeResolver {
  @Query(() => Recipe)
  async recipe(@Arg("id") id: string) {}

  @Mutation(() => Recipe)
  addRecipe() {}
}
`), ['type-graphql QUERY recipe recipe @3', 'type-graphql MUTATION addRecipe addRecipe @6']);
});

test('Gin, Echo and Fiber', () => {
  assert.deepEqual(show('main.go', 'import "github.com/gin-gonic/gin"\nr.GET("/ping", ping)\nr.Any("/x", h.Any)\n'), ['gin GET /ping ping @2', 'gin * /x Any @3']);
  assert.deepEqual(show('main.go', 'import "github.com/labstack/echo/v4"\ne.POST("/users", createUser)\n'), ['echo POST /users createUser @2']);
  assert.deepEqual(show('main.go', 'import "github.com/gofiber/fiber/v2"\napp.Get("/", func(c *fiber.Ctx) error { return nil })\napp.Post("/api/users", handlers.Create)\n'), ['fiber GET / <anonymous> @2', 'fiber POST /api/users Create @3']);
});

test('Echo routes in a file that also imports Fiber stay Echo routes; a Group prefix joins the path (nested too)', () => {
  const text = [
    'import (',
    '  "github.com/labstack/echo/v4"',
    '  "github.com/gofiber/fiber/v2"',
    ')',
    'e.GET("/health", health)',
    'api := e.Group("/api")',
    'api.POST("/users", createUser)',
    'v1 := api.Group("/v1/")',
    'v1.DELETE("/users/:id", deleteUser)',
    'app.Get("/metrics", metrics)',
    'admin := app.Group("/admin")',
    'admin.Post("/reload", reload)',
  ].join('\n');
  assert.deepEqual(show('main.go', text), [
    'echo GET /health health @5', 'echo POST /api/users createUser @7', 'echo DELETE /api/v1/users/:id deleteUser @9',
    'fiber GET /metrics metrics @10', 'fiber POST /admin/reload reload @12',
  ]);
});

test('Spring (Java and Kotlin) with a class-level prefix', () => {
  assert.deepEqual(show('UserController.java', `@RestController
@RequestMapping("/users")
public class UserController {
    @GetMapping("/{id}")
    public User get(@PathVariable long id) { return null; }

    @RequestMapping(value = "/search", method = RequestMethod.POST)
    public List<User> search() { return null; }
}
`), ['spring GET /users/{id} get @4', 'spring POST /users/search search @7']);
  assert.deepEqual(show('Api.kt', `@RestController
class Api {
    @PostMapping("/orders")
    fun create(): String = "ok"
}
`), ['spring POST /orders create @3']);
});

test('GraphQL schema files and gRPC protos', () => {
  assert.deepEqual(show('schema.graphql', `# comment
type Query {
  user(id: ID!): User # inline
  users(filter: Filter = { active: true }): [User]
}
extend type Mutation { ignoredOnOneLine: Int }
type Subscription {
  onUser: User
}
type User { name: String }
`), ['graphql QUERY user user @3', 'graphql QUERY users users @4', 'graphql SUBSCRIPTION onUser onUser @8']);
  assert.deepEqual(show('svc.proto', 'service Greeter {\n  rpc SayHello (HelloRequest) returns (HelloReply);\n  // rpc Old (A) returns (B);\n}\n'), ['grpc RPC Greeter/SayHello SayHello @2']);
});

test('tree-sitter facts first: only lines the parser saw a call on count, handlers come from its symbols', () => {
  const text = "const doc = `\napp.get('/in-a-string', h)\n`;\napp.get('/real', handler)\n";
  assert.equal(show('a.js', text).length, 2, 'text patterns alone are fooled by the template string');
  const facts: FileFacts = { symbols: [], callLines: new Set([4]) };
  assert.deepEqual(show('a.js', text, facts), ['express GET /real handler @4']);
  const py = '@app.get("/x")\n@cached\nasync def real_name():\n    pass\n';
  const pyFacts: FileFacts = { symbols: [{ name: 'real_name', kind: 'function', nameLine: 3, lineStart: 1, lineEnd: 4 }], callLines: new Set([1, 2]) };
  assert.deepEqual(show('a.py', py, pyFacts), ['fastapi GET /x real_name @1']);
});

test('at most 100 routes per file; unknown file types give none', () => {
  const many = Array.from({ length: 150 }, (_, i) => `app.get('/r${i}', h${i});`).join('\n');
  assert.equal(extractRoutes('big.js', many).length, 100);
  assert.deepEqual(extractRoutes('notes.txt', "app.get('/x', h)"), []);
  assert.deepEqual(extractRoutes('empty.py', ''), []);
});

test('ASP.NET: attribute routes under a [controller] prefix, and minimal APIs with MapGroup', () => {
  assert.deepEqual(show('Controllers/OrdersController.cs', `[ApiController]
[Route("api/[controller]")]
public class OrdersController : ControllerBase
{
    [HttpGet("{id}")]
    public ActionResult<Order> Get(int id) => Ok();

    [HttpPost]
    // [HttpDelete("{id}")]
    public async Task<IActionResult> Create(Order order) { return Ok(); }

    [HttpGet("/health")]
    public string Health() => "ok";
}
`), ['aspnet GET /api/Orders/{id} Get @5', 'aspnet POST /api/Orders Create @8', 'aspnet GET /health Health @12']);
  assert.deepEqual(show('Program.cs', `var app = builder.Build();
app.MapGet("/todos", GetTodos);
var api = app.MapGroup("/api");
api.MapPost("/todos/{id}", (int id) => Results.Ok());
app.Map("/any", Handle);
`), ['aspnet GET /todos GetTodos @2', 'aspnet POST /api/todos/{id} <anonymous> @4', 'aspnet * /any Handle @5']);
});

test('Rails: verbs, root, resources with only/except, nested resources, namespaces and member routes', () => {
  assert.deepEqual(show('config/routes.rb', `Rails.application.routes.draw do
  root 'pages#home'
  get '/about', to: 'pages#about'
  # get '/hidden', to: 'pages#hidden'
  resources :photos, only: [:index, :show]
  resource :profile, except: [:new, :edit, :destroy]
  namespace :admin do
    post 'reindex' => 'search#reindex'
  end
  resources :users, only: [:index] do
    resources :posts, only: [:create]
    member do
      get 'preview'
    end
  end
  match '/hook', to: 'hooks#receive', via: [:get, :post]
end
`), [
    'rails GET / pages#home @2', 'rails GET /about pages#about @3',
    'rails GET /photos photos#index @5', 'rails GET /photos/:id photos#show @5',
    'rails POST /profile profile#create @6', 'rails GET /profile profile#show @6', 'rails PATCH /profile profile#update @6',
    'rails POST /admin/reindex admin/search#reindex @8',
    'rails GET /users users#index @10', 'rails POST /users/:user_id/posts posts#create @11',
    'rails GET /users/:id/preview preview @13',
    'rails GET /hook hooks#receive @16', 'rails POST /hook hooks#receive @16',
  ]);
  assert.deepEqual(show('app/models/user.rb', "get '/x', to: 'a#b'\n"), [], 'only routes files declare Rails routes');
});

test('Laravel: verbs with controller handlers, match, resource and apiResource, prefix groups', () => {
  assert.deepEqual(show('routes/web.php', `<?php
use App\\Http\\Controllers\\UserController;

Route::get('/users/{id}', [UserController::class, 'show']);
Route::post('/login', 'AuthController@login');
// Route::get('/hidden', fn () => 1);
Route::match(['get', 'post'], '/search', fn () => view('search'));
Route::apiResource('photos', PhotoController::class)->only(['index', 'store']);
Route::prefix('admin')->group(function () {
    Route::delete('/cache', [CacheController::class, 'clear']);
});
Route::get('/after', HomeController::class);
`), [
    'laravel GET /users/{id} UserController.show @4', 'laravel POST /login AuthController.login @5',
    'laravel GET /search <anonymous> @7', 'laravel POST /search <anonymous> @7',
    'laravel GET /photos PhotoController.index @8', 'laravel POST /photos PhotoController.store @8',
    'laravel DELETE /admin/cache CacheController.clear @10', 'laravel GET /after HomeController @12',
  ]);
});

/** What the index knows of a file, from the real grammar and tags query (as routes/for-files.ts reads it back). */
async function parsedFacts(path: string, text: string): Promise<FileFacts> {
  const host = createInProcessParserHost(createNodeAssetLocator(ASSET_ROOT));
  try {
    const [r] = await host.parse([{ path, language: languageForPath(path)!.id, text }]);
    return {
      symbols: r!.symbols.map((s) => ({ name: s.name, kind: s.kind, nameLine: s.nameLine, lineStart: s.lineStart, lineEnd: s.lineEnd })),
      callLines: new Set(r!.references.filter((ref) => ref.kind === 'call').map((ref) => ref.line)),
    };
  } finally {
    await host.dispose();
  }
}

test('C# and PHP routes with the parser\'s facts: registrations are calls, a route in a string is not', async () => {
  const cs = `var app = builder.Build();
app.MapGet("/todos", GetTodos);
var doc = "app.MapPost(\\"/fake\\", X)";
public class TodosController
{
    [HttpGet("{id}")]
    public Todo Get(int id) => null;
}
`;
  assert.deepEqual(show('Program.cs', cs, await parsedFacts('Program.cs', cs)), ['aspnet GET /todos GetTodos @2', 'aspnet GET /{id} Get @6']);
  const php = `<?php
Route::get('/users', [UserController::class, 'index']);
$doc = "Route::post('/fake', 'X@y');";
`;
  assert.deepEqual(show('routes/api.php', php, await parsedFacts('routes/api.php', php)), ['laravel GET /users UserController.index @2']);
});
