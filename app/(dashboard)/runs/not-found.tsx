export { default } from "./[id]/not-found";
