// Express 4 is installed as the alias `express4` for the tests; its API used here is typed like Express 5's.
declare module "express4" {
  import express from "express"
  export default express
}
